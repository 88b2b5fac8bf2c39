import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

/** Where the suite leaves its screenshots for review (gitignored: `screenshots/`). */
export const screenshots_dir = fileURLToPath(new URL("../screenshots/", import.meta.url));

/** Saves the page (the whole scrolled length unless `fullPage` is false) as `<name>.png`. */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  mkdirSync(screenshots_dir, { recursive: true });
  const file = `${screenshots_dir}${name}.png`;
  // Fonts and images settle before the picture is taken.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true, animations: "disabled" });
  return file;
}
