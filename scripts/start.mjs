// `npm start`: build the web app when its build is missing or older than its sources, then
// run the server in this process (TypeScript through tsx, so there is no server build step).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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

function newestChangeMs(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    newest = Math.max(newest, newestChangeMs(path.join(target, entry)));
  }
  return newest;
}

const builtAtMs = existsSync(builtShell) ? statSync(builtShell).mtimeMs : 0;
const sourcesChangedMs = Math.max(...webSources.map(newestChangeMs));
if (builtAtMs < sourcesChangedMs) {
  console.info(
    builtAtMs === 0
      ? "Building the web app (first start)…"
      : "Web app sources changed: rebuilding…",
  );
  const build = spawnSync("npm", ["run", "build", "-w", "web"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

process.chdir(root);
const { register } = await import("tsx/esm/api");
register();
await import("../server/src/main.ts");
