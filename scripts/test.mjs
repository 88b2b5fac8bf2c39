// `npm test`: every check in order, stopping at the first failure, then the time each
// stage took (CI prints the same table; the stages are the npm scripts named below).
import { spawnSync } from "node:child_process";

const stages = ["typecheck", "lint", "check:architecture", "test:unit", "test:e2e"];
const timings = [];
let failed = null;
for (const stage of stages) {
  const started = performance.now();
  const result = spawnSync("npm", ["run", "--silent", stage], { stdio: "inherit" });
  timings.push([stage, (performance.now() - started) / 1000]);
  if (result.status !== 0) {
    failed = stage;
    break;
  }
}
console.log("\nnpm test stages:");
for (const [stage, seconds] of timings) {
  console.log(`  ${stage.padEnd(20)} ${seconds.toFixed(1).padStart(7)} s`);
}
const total = timings.reduce((sum, [, seconds]) => sum + seconds, 0);
console.log(`  ${"total".padEnd(20)} ${total.toFixed(1).padStart(7)} s`);
if (failed) {
  console.error(`npm test: ${failed} failed`);
  process.exit(1);
}
