// Renders the app icons (web/public/icons/*.svg) to the PNGs the web app manifest and iOS
// need. The PNGs are committed; run this after changing an SVG:
//   node web/scripts/render-icons.mjs
// It drives the same Chromium as the browser suite (CHROMIUM_PATH, default /usr/bin/chromium).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const icons_dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../public/icons");

/** [source SVG, output PNG, edge in pixels]. */
const renders = [
  ["icon.svg", "icon-192.png", 192],
  ["icon.svg", "icon-512.png", 512],
  ["icon-maskable.svg", "icon-maskable-192.png", 192],
  ["icon-maskable.svg", "icon-maskable-512.png", 512],
  // iOS rounds the corners itself and shows transparency as black: the full-bleed artwork.
  ["icon-maskable.svg", "apple-touch-icon.png", 180],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  for (const [source, output, edge] of renders) {
    const svg = await readFile(path.join(icons_dir, source), "utf8");
    await page.setViewportSize({ width: edge, height: edge });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace("<svg ", `<svg width="${edge}" height="${edge}" `)}</body></html>`,
    );
    await page.screenshot({ path: path.join(icons_dir, output), omitBackground: true });
    console.log(`${output} (${edge}×${edge})`);
  }
} finally {
  await browser.close();
}
