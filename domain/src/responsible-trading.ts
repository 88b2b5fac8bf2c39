import { z } from "zod";

/**
 * Responsible trading (issue 14): the reality check's setting and the session's figures it
 * shows. The server's schemas and the Responsible trading page's form read the same rules
 * and messages from here.
 */

/** The reality check's interval in minutes: the trader's choice within these bounds. */
export const reality_check_interval_min_minutes = 10;
export const reality_check_interval_max_minutes = 60;
/** On by default, every 60 minutes (the issue: "default 60, on by default"). */
export const reality_check_default = { enabled: true, interval_minutes: 60 } as const;
/** The intervals the page offers (any whole number of minutes within the bounds is accepted). */
export const reality_check_interval_choices = [10, 15, 20, 30, 45, 60] as const;

export const responsibleTradingMessages = {
  intervalInvalid: `Choose a reality check interval between ${reality_check_interval_min_minutes} and ${reality_check_interval_max_minutes} minutes`,
  enabledInvalid: "Choose whether the reality check is on or off",
  realityCheckSaved: "Reality check settings saved",
  realityCheckSaveFailed: "Could not save the reality check settings",
  realityCheckLoadFailed: "Could not load the reality check settings",
} as const;

const m = responsibleTradingMessages;

/** PUT /responsible-trading/reality-check and the page's form. */
export const realityCheckSettingsSchema = z.object({
  enabled: z.boolean({ error: m.enabledInvalid }),
  interval_minutes: z
    .number({ error: m.intervalInvalid })
    .int({ error: m.intervalInvalid })
    .min(reality_check_interval_min_minutes, { error: m.intervalInvalid })
    .max(reality_check_interval_max_minutes, { error: m.intervalInvalid }),
});
export type RealityCheckSettings = z.infer<typeof realityCheckSettingsSchema>;

export const realityCheckSettingsDataSchema = z.object({
  reality_check: realityCheckSettingsSchema,
});

/**
 * GET /responsible-trading/session: this session's real-account trading since its sign-in.
 * `trades` and `stakes` count the real trades placed in the session; `result` is what the
 * real trades settled in the session paid back (payouts and refunds) less their stakes.
 * Amounts in dollars (exact cents).
 */
export const sessionFiguresSchema = z.object({
  reality_check: realityCheckSettingsSchema,
  session_started_at: z.string(),
  /** The server's time of the reply. */
  now: z.string(),
  /** The first check after now (session start + a whole number of intervals); null when off. */
  next_check_at: z.string().nullable(),
  trades: z.number().int(),
  stakes: z.number(),
  result: z.number(),
});
export type SessionFigures = z.infer<typeof sessionFiguresSchema>;

/**
 * The first reality check after `after_ms`: the session's sign-in plus a whole number of
 * intervals. The server's `next_check_at` and the web app's timer both use it, so the checks
 * follow the session's start, not a page load.
 */
export function nextRealityCheckAt(
  started_at_ms: number,
  interval_minutes: number,
  after_ms: number,
): number {
  const interval_ms = interval_minutes * 60_000;
  const passed = Math.max(0, Math.floor((after_ms - started_at_ms) / interval_ms));
  return started_at_ms + (passed + 1) * interval_ms;
}

/** "1 h 5 min", "12 min", "0 min": how long the session has lasted, in whole minutes. */
export function sessionLengthText(length_ms: number): string {
  const minutes = Math.max(0, Math.floor(length_ms / 60_000));
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours > 0 ? `${hours} h ${rest} min` : `${rest} min`;
}
