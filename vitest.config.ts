import { defineConfig } from "vitest/config";

// One runner for every suite; `npm test` picks the projects (see package.json scripts).
export default defineConfig({
  test: {
    projects: [
      "domain",
      "server",
      "server/vitest.serial.config.ts",
      "server/vitest.soak.config.ts",
      "web",
      "e2e",
    ],
  },
});
