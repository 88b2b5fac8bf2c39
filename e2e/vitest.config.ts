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
    // A poll waits as long as an element wait (browser.ts: 15 s), not Vitest's default 1 s:
    // on a busy machine a page that answers in 1.2 s is slow, not wrong. A poll that must be
    // quicker says so with its own timeout.
    expect: { poll: { timeout: 15_000 } },
  },
});
