// `npm start`: build the web app when its build is missing or older than its sources, then
// run the server in this process (TypeScript through tsx, so there is no server build step).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { missingServerNodeFlags } from "./server-node-flags.mjs";
import { webBuildState } from "./web-build-freshness.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const builtShell = path.join(root, "web", "dist", "index.html");
const webSources = [
  "web/src",
  "web/public",
  "web/index.html",
  "web/vite.config.ts",
  "web/package.json",
  "domain/src",
].map((source) => path.join(root, source));

const state = webBuildState(builtShell, webSources);
if (state !== "fresh") {
  console.info(
    state === "missing"
      ? "Building the web app (first start)…"
      : "Web app sources changed: rebuilding…",
  );
  const build = spawnSync("npm", ["run", "build", "-w", "web"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Started as `node scripts/start.mjs` rather than by `npm start` or the service: it runs,
// with the CPU cost the flags avoid (server-node-flags.mjs), so say which are missing.
const missingFlags = missingServerNodeFlags(process.execArgv);
if (missingFlags.length > 0) {
  console.warn(
    `Started without ${missingFlags.join(" ")}: run it as \`node ${missingFlags.join(" ")} scripts/start.mjs\` (as \`npm start\` does) for the server's tuned memory settings.`,
  );
}

process.chdir(root);
const { register } = await import("tsx/esm/api");
register();
await import("../server/src/main.ts");
