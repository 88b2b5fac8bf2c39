import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** One entry of Vite's dist/.vite/manifest.json (the fields the check reads). */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}
export type ViteManifest = Record<string, ManifestChunk>;

/**
 * A page's budget: the JavaScript its first load fetches, compressed. `modules` are the
 * source modules (manifest keys) the page's routes load: the app's entry (index.html) and
 * the lazy route modules that match the URL (web/src/app/routes.tsx), plus any library the
 * page imports dynamically as soon as it draws ("npm:<package>", e.g. the dashboard's chart).
 * Their chunks and every chunk those import statically are what the browser downloads
 * before the page is complete.
 */
export interface PageBudget {
  page: string;
  modules: string[];
  brotliBytesMax: number;
}

const kilobyte = 1024;

/** Issue 13 item 8: `/` at most 120 KB of compressed JavaScript, `/user/dashboard` 250 KB. */
export const pageBudgets: PageBudget[] = [
  {
    page: "/",
    modules: ["index.html", "src/routes/home/home-page.tsx"],
    brotliBytesMax: 120 * kilobyte,
  },
  {
    page: "/user/dashboard",
    modules: [
      "index.html",
      "src/app/user-shell/user-shell.tsx",
      "src/routes/dashboard/dashboard-page.tsx",
      // The chart is on the dashboard's first screen: its library loads at once.
      "npm:lightweight-charts",
    ],
    brotliBytesMax: 250 * kilobyte,
  },
];

/** The manifest key of a budget's module name: itself, or for "npm:x" the chunk of package x. */
function manifestKey(manifest: ViteManifest, name: string): string {
  if (!name.startsWith("npm:")) return name;
  const folder = `node_modules/${name.slice("npm:".length)}/`;
  const key = Object.keys(manifest).find(
    (candidate) => candidate.includes(folder) && manifest[candidate]?.isDynamicEntry,
  );
  if (!key) throw new Error(`the build does not have ${name} as a chunk of its own`);
  return key;
}

/** The JS files a page's first load fetches: its modules' chunks and their static imports. */
export function pageScriptFiles(manifest: ViteManifest, modules: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build's manifest has no module ${key}`);
    if (chunk.file.endsWith(".js")) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const name of modules) {
    const module = manifestKey(manifest, name);
    const chunk = manifest[module];
    if (!chunk) {
      throw new Error(
        `the budget names ${module}, which the build does not have (renamed or moved? update web/build/bundle-budget.ts)`,
      );
    }
    if (!chunk.isEntry && !chunk.isDynamicEntry) {
      throw new Error(`${module} is not loaded on its own (neither the entry nor a lazy route)`);
    }
    visit(module);
  }
  return [...files].sort();
}

export interface FileSize {
  file: string;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

/** A file's size as sent: the build's .br/.gz copy when there is one, else compressed here. */
export function measureFile(distDir: string, file: string): FileSize {
  const full = path.join(distDir, file);
  const source = readFileSync(full);
  const brotliBytes = existsSync(`${full}.br`)
    ? readFileSync(`${full}.br`).length
    : brotliCompressSync(source, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
      }).length;
  const gzipBytes = existsSync(`${full}.gz`)
    ? readFileSync(`${full}.gz`).length
    : gzipSync(source, { level: 9 }).length;
  return { file, bytes: source.length, brotliBytes, gzipBytes };
}

export interface PageMeasurement {
  page: string;
  files: FileSize[];
  brotliBytes: number;
  gzipBytes: number;
  bytes: number;
  brotliBytesMax: number;
  overBudget: boolean;
}

export function measurePages(
  distDir: string,
  budgets: readonly PageBudget[] = pageBudgets,
): PageMeasurement[] {
  const manifestPath = path.join(distDir, ".vite", "manifest.json");
  if (!existsSync(manifestPath)) {
    throw new Error(`${manifestPath} is missing: build the web app first (npm run build)`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as ViteManifest;
  return budgets.map((budget) => {
    const files = pageScriptFiles(manifest, budget.modules).map((file) =>
      measureFile(distDir, file),
    );
    const sum = (pick: (size: FileSize) => number) =>
      files.reduce((total, size) => total + pick(size), 0);
    const brotliBytes = sum((size) => size.brotliBytes);
    return {
      page: budget.page,
      files,
      brotliBytes,
      gzipBytes: sum((size) => size.gzipBytes),
      bytes: sum((size) => size.bytes),
      brotliBytesMax: budget.brotliBytesMax,
      overBudget: brotliBytes > budget.brotliBytesMax,
    };
  });
}

const kb = (bytes: number) => `${(bytes / kilobyte).toFixed(1)} KB`;

/** The report printed by `npm run check:bundle`, one block per page. */
export function renderMeasurements(measurements: readonly PageMeasurement[]): string {
  return measurements
    .map((measurement) =>
      [
        `${measurement.overBudget ? "OVER BUDGET" : "ok"}  ${measurement.page}: ${kb(measurement.brotliBytes)} brotli (${kb(measurement.gzipBytes)} gzip, ${kb(measurement.bytes)} raw) of JavaScript, budget ${kb(measurement.brotliBytesMax)}`,
        ...measurement.files
          .toSorted((a, b) => b.brotliBytes - a.brotliBytes)
          .map((size) => `    ${kb(size.brotliBytes).padStart(9)}  ${size.file}`),
      ].join("\n"),
    )
    .join("\n");
}
