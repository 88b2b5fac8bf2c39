import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    include: ["test/**/*.test.ts"],
    // The soak runs alone, after the other suites (vitest.soak.config.ts).
    exclude: ["test/soak.test.ts", "**/node_modules/**"],
    // Many tests start a whole platform (migrations included) inside the test: on a busy
    // 2-core machine that alone has taken 50 s. A hang still fails, just later.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
