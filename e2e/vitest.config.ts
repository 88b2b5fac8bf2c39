import { defineConfig } from "vitest/config";

/**
 * The browser suite: the real server over a fresh database, real SMTP capture and the real
 * built web app (web/dist), driven in a real Chromium. One file at a time: each starts its
 * own platform and browser, and running them side by side only makes them slower and flakier.
 */
export default defineConfig({
  test: {
    name: "e2e",
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
