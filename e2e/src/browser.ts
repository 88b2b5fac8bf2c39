import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { describe } from "vitest";

/**
 * The browser of the suite: the system Chromium (Debian's `chromium` package), driven by
 * playwright-core. Never a downloaded Playwright browser.
 */
export const chromium_path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const chromium_args = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * Whether Chromium is there. Missing in CI (CI=true) is an error: a browser suite that
 * silently skips there would pass without testing anything. Missing on a workstation skips
 * the suite, and says so loudly.
 */
function chromiumIsInstalled(): boolean {
  if (existsSync(chromium_path)) return true;
  if (process.env.CI === "true") {
    throw new Error(
      `CI=true but Chromium is not at ${chromium_path}: the browser suite must run in CI ` +
        "(install it with `apt-get install -y chromium`, or set CHROMIUM_PATH).",
    );
  }
  process.stderr.write(
    `\n${"*".repeat(88)}\n` +
      `*** Chromium is not at ${chromium_path}: the BROWSER SUITE (e2e) IS SKIPPED.\n` +
      "*** Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH) to run it.\n" +
      `${"*".repeat(88)}\n\n`,
  );
  return false;
}

export const chromium_available = chromiumIsInstalled();

/** `describe` when Chromium is installed, `describe.skip` (announced above) when it is not. */
export const describeBrowser = describe.skipIf(!chromium_available);

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromium_path, args: chromium_args });
}

export const viewports = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 375, height: 812 },
} as const;

export type Viewport = { width: number; height: number };

/**
 * A fresh browser profile (own localStorage) on the platform's origin, optionally announcing
 * another browser's user agent. Everything the page throws and every Content-Security-Policy
 * refusal is collected: `problems` should stay empty.
 */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  problems: string[];
  /**
   * The API's replies of 400 or more ("status METHOD path"): some are expected (a wrong
   * password), so they are not problems, but a test that fails prints them.
   */
  refusedApiCalls: string[];
  close(): Promise<void>;
}

export async function openSession(
  browser: Browser,
  baseUrl: string,
  viewport: Viewport = viewports.desktop,
  options: { userAgent?: string; blockServiceWorkers?: boolean } = {},
): Promise<BrowserSession> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport,
    locale: "en-US",
    // Another browser's user agent (the Safari install hint), on the same Chromium.
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    // A test that rewrites API replies (page.route) must see the page's own requests: the
    // app's service worker would otherwise fetch them out of Playwright's reach.
    ...(options.blockServiceWorkers ? { serviceWorkers: "block" as const } : {}),
  });
  // Waits end well before the test's own timeout, so a failure names the missing element.
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    // A refused request (401 for a wrong password) is the browser reporting a reply the
    // app handles; a policy refusal or a React error is a defect.
    if (/Content Security Policy|Uncaught|React|Warning:/i.test(text)) {
      problems.push(`console: ${text}`);
    }
  });
  const refusedApiCalls: string[] = [];
  page.on("response", (response) => {
    if (response.status() < 400) return;
    const url = new URL(response.url());
    if (!url.pathname.startsWith("/api/")) return;
    refusedApiCalls.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
  });
  if (process.env.E2E_DEBUG) traceToStderr(page);
  return { context, page, problems, refusedApiCalls, close: () => context.close() };
}

/** E2E_DEBUG=1: the page's console, API calls and navigations, as they happen. */
function traceToStderr(page: Page): void {
  const log = (line: string) => process.stderr.write(`[e2e] ${line}\n`);
  page.on("console", (message) => log(`console.${message.type()} ${message.text()}`));
  page.on("pageerror", (error) => log(`pageerror ${error.message}`));
  page.on("request", (request) => {
    if (request.url().includes("/api/")) log(`→ ${request.method()} ${request.url()}`);
  });
  page.on("response", (response) => {
    if (response.url().includes("/api/")) log(`← ${response.status()} ${response.url()}`);
  });
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) log(`navigated ${frame.url()}`);
  });
}
