import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, Result, RunOptions } from "axe-core";
import type { Page } from "playwright-core";

/**
 * axe-core in the page under test (issue 13 item 7). The script is evaluated through the
 * browser's debugging protocol, not added as a <script>: the app's Content-Security-Policy
 * refuses inline scripts, and it must stay as strict under test as in production.
 */
const axe_source = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** The impacts the suite fails on: the bar is 0 serious and 0 critical. */
export const failing_impacts: ReadonlyArray<Result["impact"]> = ["serious", "critical"];

/**
 * axe's default rule set (WCAG 2.0-2.2 A/AA and best practices) plus label-in-name, which
 * axe still marks experimental and leaves off by default: the first finding was a
 * logo link named "Home" that reads "TradePlatform" (WCAG 2.5.3).
 */
const run_options: RunOptions = {
  resultTypes: ["violations"],
  rules: { "label-content-name-mismatch": { enabled: true } },
};

/** One violation as the failure message prints it: rule, impact, where, and why. */
export interface Violation {
  rule: string;
  impact: string;
  help: string;
  targets: Array<{ target: string; summary: string }>;
}

/** The serious and critical violations axe finds in the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(axe_source);
  const results = await page.evaluate(
    (options) =>
      (
        window as unknown as { axe: { run(context: Node, o: unknown): Promise<AxeResults> } }
      ).axe.run(document, options),
    run_options as Record<string, unknown>,
  );
  return results.violations
    .filter((violation) => failing_impacts.includes(violation.impact))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? "",
      help: violation.help,
      targets: violation.nodes.map((node) => ({
        target: node.target.join(" "),
        summary: (node.failureSummary ?? "").replace(/\s+/g, " ").trim(),
      })),
    }));
}

/** Violations as readable lines: `rule (impact): help` then each target and its summary. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map(
      (violation) =>
        `  ${violation.rule} (${violation.impact}): ${violation.help}\n` +
        violation.targets.map((node) => `    - ${node.target}\n      ${node.summary}`).join("\n"),
    )
    .join("\n");
}
