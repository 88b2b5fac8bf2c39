import { defineConfig } from "vitest/config";

/**
 * The soak's CI version (test/soak.test.ts) on its own, after the other suites: it keeps a
 * platform busy for two minutes, and beside other test files it made their timing-bound
 * checks fail (a web test's findByRole timed out while it ran). `npm run test:unit` runs it
 * last.
 */
export default defineConfig({
  test: {
    name: "soak",
    include: ["test/soak.test.ts"],
    maxWorkers: 1,
    testTimeout: 240_000,
    hookTimeout: 180_000,
  },
});
