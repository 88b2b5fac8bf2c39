import { defineConfig } from "vitest/config";
import { timingBoundFiles } from "./vitest.timing-files.ts";

export default defineConfig({
  test: {
    name: "server",
    include: ["test/**/*.test.ts"],
    // The soak runs alone, after the other suites (vitest.soak.config.ts); the timing-bound
    // files run one at a time after these (vitest.serial.config.ts).
    exclude: ["test/soak.test.ts", ...timingBoundFiles, "**/node_modules/**"],
    // Two files at a time even on 2 cores (Vitest's default is cores − 1): much of a file's
    // time is spent waiting on PostgreSQL, Redis, sockets and timers, not on this process.
    // The same count as the domain project, which runs beside it (same sequence.groupOrder).
    maxWorkers: 2,
    // Files share a worker's modules instead of importing the whole server again each (and
    // the embedded database's migrated template is made once a worker, not once a file):
    // the project ran in 380 s instead of 644 s on both databases. The files keep no state
    // in modules; each starts its own platforms, databases and servers.
    isolate: false,
    // Many tests start a whole platform (migrations included) inside the test: on a busy
    // 2-core machine that alone has taken 50 s. A hang still fails, just later.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
