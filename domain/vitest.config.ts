import { defineConfig } from "vitest/config";

// Beside the server project (same sequence.groupOrder), so the same worker count.
export default defineConfig({
  test: { name: "domain", include: ["test/**/*.test.ts"], maxWorkers: 2 },
});
