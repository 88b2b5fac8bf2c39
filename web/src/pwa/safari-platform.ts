/**
 * Safari has no install prompt an app can trigger; SPEC §2 shows its users the steps
 * instead. Other browsers on iOS and macOS put "Safari" in their user agent too, so they
 * are recognised by their own tokens first.
 */
export type SafariPlatform = "ios" | "macos";

const other_browsers =
  /CriOS|FxiOS|EdgiOS|OPiOS|GSA\/|Chrome|Chromium|Edg\/|OPR\/|Firefox|SamsungBrowser|Android/;

export function safariPlatform(userAgent: string, maxTouchPoints: number): SafariPlatform | null {
  if (other_browsers.test(userAgent)) return null;
  if (!/Version\/[\d.]+.*Safari\//.test(userAgent)) return null;
  if (/iPhone|iPad|iPod/.test(userAgent)) return "ios";
  // iPadOS asks for desktop sites with a Mac user agent; only its touch screen tells it apart.
  if (/Macintosh/.test(userAgent)) return maxTouchPoints > 1 ? "ios" : "macos";
  return null;
}

/** True when the page already runs as an installed app (no hint needed then). */
export function runningStandalone(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  const displayStandalone =
    typeof window.matchMedia === "function" &&
    window.matchMedia("(display-mode: standalone)").matches;
  return iosStandalone || displayStandalone;
}
