// Whether the built web app is missing or older than any of its sources (npm start uses it).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Newest modification time under `target` (a file or a folder), 0 when it does not exist. */
export function newestChangeMs(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    newest = Math.max(newest, newestChangeMs(path.join(target, entry)));
  }
  return newest;
}

/** "missing", "stale" or "fresh" for the build marked by `builtFile` against `sources`. */
export function webBuildState(builtFile, sources) {
  if (!existsSync(builtFile)) return "missing";
  const builtAtMs = statSync(builtFile).mtimeMs;
  return Math.max(...sources.map(newestChangeMs)) > builtAtMs ? "stale" : "fresh";
}
