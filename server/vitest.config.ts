import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    include: ["test/**/*.test.ts"],
    // Many tests start a whole platform (migrations included) inside the test: on a busy
    // 2-core machine that alone has taken 50 s. A hang still fails, just later.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
