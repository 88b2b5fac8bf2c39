/**
 * The browser's localStorage as the app uses it (SPEC §3: token, stored user, theme and the
 * e-mail used at registration). Storage can throw (private mode, quota, disabled cookies);
 * the app then behaves as if nothing was stored instead of crashing.
 */
export const storageKeys = {
  token: "token",
  user: "user",
  theme: "theme",
  registrationEmail: "registration_email",
  /** The chart's type, interval and indicators with their settings (chart-settings.ts). */
  chartSettings: "chart_settings",
  /** The dashboard's one selected asset (chart, trade box, panel), kept across reloads. */
  selectedAsset: "selected_asset",
} as const;

/**
 * PRODUCT.md D6: a trader's acknowledgement of the risk warning before their first
 * real-account trade, remembered per user (one browser may serve several traders).
 */
export function riskAcknowledgedKey(userId: number) {
  return `risk_acknowledged:${userId}` as const;
}

export type StorageKey =
  | (typeof storageKeys)[keyof typeof storageKeys]
  | ReturnType<typeof riskAcknowledgedKey>;

export function readStorage(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: StorageKey, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not persisted: the value lives only as long as the page's own state.
  }
}

export function removeStorage(key: StorageKey): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored can be read back either, so there is nothing left to remove.
  }
}
