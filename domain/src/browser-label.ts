/**
 * A short readable label of a user agent ("Chrome on Windows"), for sessions and sign-in
 * history on the Security page and in the back office. Family names only, no versions.
 * Only a hint: a user agent is whatever the client says.
 */

/** Longest user agent we read; real ones are a few hundred characters. */
const user_agent_length_max = 300;

const browsers: ReadonlyArray<[RegExp, string]> = [
  // Order matters: Edge, Opera and Samsung also say "Chrome", Chrome also says "Safari".
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
];

const systems: ReadonlyArray<[RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

export function browserLabel(userAgent: string | undefined | null): string {
  const agent = (userAgent ?? "").slice(0, user_agent_length_max);
  const browser = browsers.find(([pattern]) => pattern.test(agent))?.[1];
  const system = systems.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `Unknown browser on ${system}`;
  return "Unknown browser";
}
