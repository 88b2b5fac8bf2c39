import { defineConfig } from "vitest/config";
import { timingBoundFiles } from "./vitest.timing-files.ts";

/**
 * The server files that must not share the machine with another test file
 * (vitest.timing-files.ts says why): one at a time, after the domain and server projects
 * have finished (a higher sequence.groupOrder), before the web project.
 */
export default defineConfig({
  test: {
    name: "server-serial",
    include: timingBoundFiles,
    maxWorkers: 1,
    // As the server project (vitest.config.ts): the files share the worker's modules
    // (246 s → 213 s here).
    isolate: false,
    sequence: { groupOrder: 1 },
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
