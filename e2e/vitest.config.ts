import { defineConfig } from "vitest/config";

/**
 * The browser suite: the real server over a fresh database, real SMTP capture and the real
 * built web app (web/dist), driven in a real Chromium.
 *
 * Two files at a time: each starts its own platform (fresh database, own port) and browser,
 * and much of the suite is real waiting (30-second trades that settle on the real clock, feed
 * ages that move, toasts that leave), which the other file's work fills. Not more: on a 2-core
 * machine a third platform and browser only queue for the CPU.
 */
export default defineConfig({
  test: {
    name: "e2e",
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
    // Files share a worker's modules, as the server project's do (server/vitest.config.ts):
    // the server and the suite's helpers are imported, and the embedded database's migrated
    // template made, once a worker instead of once a file (the suite's imports took 68.7 s
    // of its time, then 10.9–13.9 s; the whole suite 643 s, then 473 s in one pair of runs
    // on 2 cores, whose speed moves by 10–20 % between runs). Each file still starts its
    // own platform and browser, and closes them.
    isolate: false,
    // A poll waits as long as an element wait (browser.ts: 15 s), not Vitest's default 1 s:
    // with another file beside it, a page that answers in 1.2 s is slow, not wrong. A poll
    // that must be quicker says so with its own timeout.
    expect: { poll: { timeout: 15_000 } },
  },
});
