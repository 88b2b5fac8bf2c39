import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  measurePages,
  type PageBudget,
  pageScriptFiles,
  type ViteManifest,
} from "../build/bundle-budget.ts";

/** Random bytes do not compress: a file's compressed size is its length (plus a little). */
const incompressible = (bytes: number) => randomBytes(bytes);

const manifest: ViteManifest = {
  "index.html": { file: "assets/index-a1.js", isEntry: true, imports: ["_react-b2.js"] },
  "_react-b2.js": { file: "assets/react-b2.js" },
  "_shared-c3.js": { file: "assets/shared-c3.js", imports: ["_react-b2.js"] },
  "src/routes/home/home-page.tsx": {
    file: "assets/home-page-d4.js",
    isDynamicEntry: true,
    imports: ["index.html", "_shared-c3.js"],
  },
  "src/routes/dashboard/dashboard-page.tsx": {
    file: "assets/dashboard-page-e5.js",
    isDynamicEntry: true,
    imports: ["index.html", "_shared-c3.js"],
  },
  "../node_modules/lightweight-charts/dist/lightweight-charts.production.mjs": {
    file: "assets/charts-f6.js",
    isDynamicEntry: true,
  },
};

const sizes: Record<string, number> = {
  "assets/index-a1.js": 20_000,
  "assets/react-b2.js": 30_000,
  "assets/shared-c3.js": 5_000,
  "assets/home-page-d4.js": 3_000,
  "assets/dashboard-page-e5.js": 10_000,
  "assets/charts-f6.js": 60_000,
};

let distDir = "";
afterEach(() => {
  if (distDir) rmSync(distDir, { recursive: true, force: true });
});

function writeDist() {
  distDir = mkdtempSync(path.join(tmpdir(), "tp-bundle-"));
  mkdirSync(path.join(distDir, ".vite"), { recursive: true });
  mkdirSync(path.join(distDir, "assets"), { recursive: true });
  writeFileSync(path.join(distDir, ".vite", "manifest.json"), JSON.stringify(manifest));
  for (const [file, bytes] of Object.entries(sizes)) {
    writeFileSync(path.join(distDir, file), incompressible(bytes));
  }
  return distDir;
}

describe("the bundle budget check", () => {
  it("follows a page's modules and their static imports, each file once", () => {
    expect(pageScriptFiles(manifest, ["index.html", "src/routes/home/home-page.tsx"])).toEqual([
      "assets/home-page-d4.js",
      "assets/index-a1.js",
      "assets/react-b2.js",
      "assets/shared-c3.js",
    ]);
    // A dynamically imported library counts only where the budget names it.
    const dashboard = ["index.html", "src/routes/dashboard/dashboard-page.tsx"];
    expect(pageScriptFiles(manifest, dashboard)).not.toContain("assets/charts-f6.js");
    expect(pageScriptFiles(manifest, [...dashboard, "npm:lightweight-charts"])).toContain(
      "assets/charts-f6.js",
    );
  });

  it("passes a page within its budget and fails one that grew past it", () => {
    const dist = writeDist();
    const budgets: PageBudget[] = [
      {
        page: "/",
        modules: ["index.html", "src/routes/home/home-page.tsx"],
        brotliBytesMax: 100_000,
      },
      {
        page: "/user/dashboard",
        modules: [
          "index.html",
          "src/routes/dashboard/dashboard-page.tsx",
          "npm:lightweight-charts",
        ],
        brotliBytesMax: 100_000,
      },
    ];
    const [home, dashboard] = measurePages(dist, budgets);
    expect(home!.overBudget).toBe(false);
    expect(home!.files).toHaveLength(4);
    // Random bytes do not compress: the total is the files' 58,000 bytes and a little.
    expect(home!.brotliBytes).toBeGreaterThanOrEqual(58_000);
    expect(home!.brotliBytes).toBeLessThan(60_000);
    // 20 + 30 + 5 + 10 + 60 thousand bytes that do not compress: over 100,000.
    expect(dashboard!.overBudget).toBe(true);
    expect(dashboard!.brotliBytes).toBeGreaterThan(100_000);
  });

  it("uses the build's .br copy when there is one", () => {
    const dist = writeDist();
    writeFileSync(path.join(dist, "assets/react-b2.js.br"), Buffer.alloc(123));
    const [home] = measurePages(dist, [
      { page: "/", modules: ["index.html"], brotliBytesMax: 1_000_000 },
    ]);
    expect(home!.files.find((size) => size.file === "assets/react-b2.js")!.brotliBytes).toBe(123);
  });

  it("fails when a budget names a module the build does not have, or one not loaded alone", () => {
    const dist = writeDist();
    expect(() =>
      measurePages(dist, [
        { page: "/", modules: ["src/routes/home/moved-page.tsx"], brotliBytesMax: 1 },
      ]),
    ).toThrow(/does not have/);
    expect(() =>
      measurePages(dist, [{ page: "/", modules: ["_shared-c3.js"], brotliBytesMax: 1 }]),
    ).toThrow(/not loaded on its own/);
  });

  it("the real budgets name modules of the real route table", async () => {
    const routesSource = await import("../src/app/routes.tsx?raw");
    const { pageBudgets } = await import("../build/bundle-budget.ts");
    for (const budget of pageBudgets) {
      for (const module of budget.modules.filter(
        (name) => name !== "index.html" && !name.startsWith("npm:"),
      )) {
        const fromRoutes = `"${path.posix.relative("src/app", module).replace(/^(?!\.)/, "./")}"`;
        expect(routesSource.default, `${budget.page}: ${module}`).toContain(fromRoutes);
      }
    }
  });
});
