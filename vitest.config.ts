import { defineConfig } from "vitest/config";

// One runner for every suite; `npm test` picks the projects (see package.json scripts).
export default defineConfig({
  test: {
    projects: ["domain", "server", "web", "e2e"],
  },
});
