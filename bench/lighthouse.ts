// `npm run bench -- lighthouse`: Lighthouse's mobile preset (its default: a mid-range phone,
// simulated slow 4G and a 4× slower CPU) on the public pages of the real app, served by the
// real server from the real build (web/dist: run `npm run build` first), in Chromium at
// /usr/bin/chromium (CHROME_PATH to change it). LIGHTHOUSE_RUNS (default 3) runs per page;
// the table shows each page's median run. Targets (issue 13 item 8): performance >= 90 and
// cumulative layout shift < 0.1 on every page.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startTestPlatform } from "../server/src/testing/test-platform.ts";
import type { BenchResult, ResultRow } from "./lib/stats.ts";

export const lighthouse_pages = ["/", "/about", "/account/sign-in", "/account/sign-up"] as const;
const performance_score_min = 90;
const layout_shift_max = 0.1;

interface PageRun {
  score: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  speedIndexMs: number;
  scriptTransferBytes: number;
  totalTransferBytes: number;
}

interface NetworkRequest {
  resourceType?: string;
  transferSize?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

async function runOnce(url: string, port: number): Promise<PageRun> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests =
    ((lhr.audits["network-requests"]?.details as { items?: NetworkRequest[] } | undefined)?.items as
      | NetworkRequest[]
      | undefined) ?? [];
  const transfer = (filter: (request: NetworkRequest) => boolean) =>
    requests.filter(filter).reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    firstContentfulPaintMs: numeric("first-contentful-paint"),
    largestContentfulPaintMs: numeric("largest-contentful-paint"),
    totalBlockingTimeMs: numeric("total-blocking-time"),
    cumulativeLayoutShift: numeric("cumulative-layout-shift"),
    speedIndexMs: numeric("speed-index"),
    scriptTransferBytes: transfer((request) => request.resourceType === "Script"),
    totalTransferBytes: transfer(() => true),
  };
}

/** Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART): such a run is redone. */
async function runWithRetries(url: string, port: number, attempts = 3): Promise<PageRun> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runOnce(url, port);
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.warn(`${url}: run failed (${String(error)}), trying again`);
    }
  }
}

export async function runLighthouseBench(): Promise<BenchResult> {
  const webDistDir = fileURLToPath(new URL("../web/dist", import.meta.url));
  if (!existsSync(`${webDistDir}/index.html`)) {
    throw new Error("web/dist is missing: run `npm run build` first");
  }
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
  const platform = await startTestPlatform("pglite", {
    webDistDir,
    env: { LOG_LEVEL: "warn" },
  });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const rows: ResultRow[] = [];
  const figures: Record<string, unknown> = { runsPerPage: runs };
  try {
    for (const page of lighthouse_pages) {
      const pageRuns: PageRun[] = [];
      for (let run = 0; run < runs; run += 1) {
        const pageRun = await runWithRetries(`${platform.baseUrl}${page}`, chrome.port);
        console.info(`${page} run ${run + 1}: ${JSON.stringify(pageRun)}`);
        pageRuns.push(pageRun);
      }
      // The run with the median score stands for the page; every score is kept.
      const scores = pageRuns.map((pageRun) => pageRun.score);
      const medianScore = median(scores);
      const chosen = pageRuns.find((pageRun) => pageRun.score === medianScore)!;
      const worstShift = Math.max(...pageRuns.map((pageRun) => pageRun.cumulativeLayoutShift));
      rows.push(
        {
          metric: `${page} performance (runs: ${scores.join(", ")})`,
          value: String(medianScore),
          target: `>= ${performance_score_min}`,
          met: medianScore >= performance_score_min,
        },
        {
          metric: `${page} layout shift (worst run)`,
          value: worstShift.toFixed(3),
          target: `< ${layout_shift_max}`,
          met: worstShift < layout_shift_max,
        },
        {
          metric: `${page} FCP / LCP / TBT / SI`,
          value: `${(chosen.firstContentfulPaintMs / 1000).toFixed(1)} s / ${(chosen.largestContentfulPaintMs / 1000).toFixed(1)} s / ${chosen.totalBlockingTimeMs.toFixed(0)} ms / ${(chosen.speedIndexMs / 1000).toFixed(1)} s`,
        },
        {
          metric: `${page} transferred: scripts / all`,
          value: `${(chosen.scriptTransferBytes / 1024).toFixed(1)} KB / ${(chosen.totalTransferBytes / 1024).toFixed(1)} KB`,
        },
      );
      figures[page] = { scores, medianScore, worstShift, ...chosen };
    }
  } finally {
    chrome.kill();
    await platform.close();
  }
  return {
    name: "lighthouse",
    rows,
    figures,
    notes: [
      "Lighthouse's default (mobile) preset: simulated throttling, so a busy machine shows up as longer main-thread tasks (TBT) and lower scores.",
    ],
  };
}
