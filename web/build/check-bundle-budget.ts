// `npm run check:bundle [-- distDir]`: the compressed JavaScript the first load of each
// budgeted page fetches (web/build/bundle-budget.ts), from the build's manifest. Exits 1
// when a page is over its budget; part of `npm run test:e2e`, right after the build.
import { fileURLToPath } from "node:url";
import { measurePages, renderMeasurements } from "./bundle-budget.ts";

const distDir = process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url));
try {
  const measurements = measurePages(distDir);
  console.info(renderMeasurements(measurements));
  const over = measurements.filter((measurement) => measurement.overBudget);
  if (over.length > 0) {
    console.error(`bundle budget: ${over.map((m) => m.page).join(", ")} over budget`);
    process.exit(1);
  }
} catch (error) {
  console.error(`bundle budget: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
