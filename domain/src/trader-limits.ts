import { z } from "zod";
import { centsFromDollars, formatUsdFromCents } from "./money.ts";

/**
 * Trader limits, time-outs and self-exclusion (issue 14 items 1 and 2). The server's schemas,
 * its refusals and the Responsible trading page read the same rules and messages from here.
 *
 * Limits apply to the real account only (practice money is not money). Periods are UTC
 * calendar periods: the day from 00:00 UTC, the week from Monday 00:00 UTC, the month from
 * its first day 00:00 UTC; each resets at the next period's start.
 *
 * - loss_*: the net real-account trading result of the trades started in the period, with
 *   every open trade counted as lost (its worst case), may not fall below minus the limit.
 *   So "used" is stakes less what settled trades paid back, never below zero on screen.
 * - stake_*: the stakes of the real trades started in the period (turnover).
 * - deposit_*: the deposits requested in the period, less those cancelled, expired or rejected.
 * - open_trades: real trades open at once.
 * - session_minutes: real trading stops once the session (from sign-in) is this old.
 *
 * Lowering a limit (or setting one where none was) takes effect at once; raising or
 * removing one takes effect `limit_cooling_off_hours` later, shown with its time.
 */

export const limit_periods = ["day", "week", "month"] as const;
export type LimitPeriod = (typeof limit_periods)[number];

export const money_limit_kinds = [
  "loss_day",
  "loss_week",
  "loss_month",
  "stake_day",
  "stake_week",
  "stake_month",
  "deposit_day",
  "deposit_week",
  "deposit_month",
] as const;
export const trader_limit_kinds = [...money_limit_kinds, "open_trades", "session_minutes"] as const;
export type MoneyLimitKind = (typeof money_limit_kinds)[number];
export type TraderLimitKind = (typeof trader_limit_kinds)[number];

export function isMoneyLimit(kind: TraderLimitKind): kind is MoneyLimitKind {
  return (money_limit_kinds as readonly string[]).includes(kind);
}

/** The period of a money limit: "loss_week" → "week". */
export function periodOfLimit(kind: MoneyLimitKind): LimitPeriod {
  return kind.slice(kind.indexOf("_") + 1) as LimitPeriod;
}

export const limit_cooling_off_hours = 24;
/** Money limits in dollars (exact cents), at most this. */
export const money_limit_dollars_max = 1_000_000;
export const open_trades_limit_max = 1000;
export const session_limit_minutes_min = 10;
export const session_limit_minutes_max = 24 * 60;

/** Time-out: whole days; self-exclusion: whole months. */
export const time_out_days_min = 1;
export const time_out_days_max = 42; // six weeks
export const self_exclusion_months_min = 6;
export const self_exclusion_months_max = 60; // five years

const limitNames: Record<TraderLimitKind, string> = {
  loss_day: "daily loss limit",
  loss_week: "weekly loss limit",
  loss_month: "monthly loss limit",
  stake_day: "daily stake limit",
  stake_week: "weekly stake limit",
  stake_month: "monthly stake limit",
  deposit_day: "daily deposit limit",
  deposit_week: "weekly deposit limit",
  deposit_month: "monthly deposit limit",
  open_trades: "open trades limit",
  session_minutes: "session time limit",
};

export function limitName(kind: TraderLimitKind): string {
  return limitNames[kind];
}

/** "Sun, 24 Nov 2026, 10:00 UTC": when a pending change or an exclusion ends (server messages). */
export function utcMomentText(iso: string): string {
  return `${new Date(iso).toLocaleString("en-GB", {
    timeZone: "UTC",
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  })} UTC`;
}

export const traderLimitMessages = {
  moneyInvalid: `Enter an amount between $0.01 and ${formatUsdFromCents(money_limit_dollars_max * 100)}, in whole cents`,
  openTradesInvalid: `Enter a whole number of open trades between 1 and ${open_trades_limit_max}`,
  sessionInvalid: `Enter a session time limit between ${session_limit_minutes_min} and ${session_limit_minutes_max} minutes`,
  limitsSaved: "Limits saved",
  limitsSavedWithPending: `Limits saved. Raised or removed limits take effect after ${limit_cooling_off_hours} hours`,
  limitsSaveFailed: "Could not save your limits",
  limitsLoadFailed: "Could not load your limits",
  exclusionKindInvalid: "Choose a time-out or self-exclusion",
  timeOutInvalid: `Choose a time-out of ${time_out_days_min} to ${time_out_days_max} days`,
  selfExclusionInvalid: `Choose a self-exclusion of ${self_exclusion_months_min} to ${self_exclusion_months_max} months`,
  exclusionStarted: "Your break has started: trading and deposits are paused until it ends",
  exclusionFailed: "Could not start your break",
  exclusionLoadFailed: "Could not load your break settings",
} as const;

const m = traderLimitMessages;

/** "This trade would exceed your daily loss limit of $100.00 (used: $92.50)". */
export function moneyLimitReachedMessage(
  kind: MoneyLimitKind,
  limit_cents: number,
  used_cents: number,
): string {
  const what = kind.startsWith("deposit") ? "deposit" : "trade";
  return `This ${what} would exceed your ${limitName(kind)} of ${formatUsdFromCents(limit_cents)} (used: ${formatUsdFromCents(Math.max(0, used_cents))})`;
}

export function openTradesLimitReachedMessage(limit: number): string {
  return `You have reached your limit of ${limit} open ${limit === 1 ? "trade" : "trades"}: wait for one to settle`;
}

export function sessionLimitReachedMessage(limit_minutes: number): string {
  return `This session has reached your session time limit of ${limit_minutes} minutes: take a break and sign in again to trade`;
}

export type ExclusionKind = "time_out" | "self_exclusion" | "closure";

/** Trading and deposits refused during a time-out, a self-exclusion or an account closure. */
export function excludedMessage(kind: ExclusionKind, ends_at: string | null): string {
  if (kind === "closure") {
    return "Your account is being closed: trading and deposits are no longer available. Withdrawals remain available";
  }
  const what = kind === "time_out" ? "You are taking a time-out" : "You have excluded yourself";
  return `${what} until ${utcMomentText(ends_at!)}: trading and deposits are paused. Withdrawals remain available`;
}

export function exclusionNotShortenedMessage(ends_at: string): string {
  return `Your break in force ends ${utcMomentText(ends_at)} and cannot be shortened: choose a longer one or wait for it to end`;
}

const moneyLimitSchema = z
  .number({ error: m.moneyInvalid })
  .refine((dollars) => centsFromDollars(dollars) !== null, { error: m.moneyInvalid })
  .refine((dollars) => dollars >= 0.01 && dollars <= money_limit_dollars_max, {
    error: m.moneyInvalid,
  });

/**
 * PUT /responsible-trading/limits: the kinds given are set (a number) or removed (null); the
 * kinds left out are unchanged. Money limits in dollars, open_trades a count, session_minutes
 * minutes.
 */
export const updateTraderLimitsSchema = z
  .object({
    loss_day: moneyLimitSchema.nullable(),
    loss_week: moneyLimitSchema.nullable(),
    loss_month: moneyLimitSchema.nullable(),
    stake_day: moneyLimitSchema.nullable(),
    stake_week: moneyLimitSchema.nullable(),
    stake_month: moneyLimitSchema.nullable(),
    deposit_day: moneyLimitSchema.nullable(),
    deposit_week: moneyLimitSchema.nullable(),
    deposit_month: moneyLimitSchema.nullable(),
    open_trades: z
      .number({ error: m.openTradesInvalid })
      .int({ error: m.openTradesInvalid })
      .min(1, { error: m.openTradesInvalid })
      .max(open_trades_limit_max, { error: m.openTradesInvalid })
      .nullable(),
    session_minutes: z
      .number({ error: m.sessionInvalid })
      .int({ error: m.sessionInvalid })
      .min(session_limit_minutes_min, { error: m.sessionInvalid })
      .max(session_limit_minutes_max, { error: m.sessionInvalid })
      .nullable(),
  })
  .partial()
  .strict();
export type UpdateTraderLimitsRequest = z.infer<typeof updateTraderLimitsSchema>;

/** One limit as GET/PUT /responsible-trading/limits shows it. */
export const traderLimitSchema = z.object({
  kind: z.enum(trader_limit_kinds),
  /** In force now: dollars, a count or minutes; null: no limit. */
  value: z.number().nullable(),
  /** A raise or removal waiting out the cooling-off: the value it sets and when. */
  pending: z.object({ value: z.number().nullable(), effective_at: z.string() }).nullable(),
  /**
   * Used so far: dollars in the current period for money limits, open trades now for
   * open_trades, this session's minutes for session_minutes.
   */
  used: z.number(),
  /** When the current period ends (money limits), else null. */
  resets_at: z.string().nullable(),
});
export type TraderLimit = z.infer<typeof traderLimitSchema>;

export const traderLimitsDataSchema = z.object({ limits: z.array(traderLimitSchema) });

/** POST /responsible-trading/exclusion: a time-out in days or a self-exclusion in months. */
export const startExclusionSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("time_out"),
      days: z
        .number({ error: m.timeOutInvalid })
        .int({ error: m.timeOutInvalid })
        .min(time_out_days_min, { error: m.timeOutInvalid })
        .max(time_out_days_max, { error: m.timeOutInvalid }),
    }),
    z.object({
      kind: z.literal("self_exclusion"),
      months: z
        .number({ error: m.selfExclusionInvalid })
        .int({ error: m.selfExclusionInvalid })
        .min(self_exclusion_months_min, { error: m.selfExclusionInvalid })
        .max(self_exclusion_months_max, { error: m.selfExclusionInvalid }),
    }),
  ],
  { error: m.exclusionKindInvalid },
);
export type StartExclusionRequest = z.infer<typeof startExclusionSchema>;

/** An exclusion in force (null when none): its kind, start and end (null for a closure). */
export const exclusionSchema = z.object({
  kind: z.enum(["time_out", "self_exclusion", "closure"]),
  started_at: z.string(),
  ends_at: z.string().nullable(),
});
export type Exclusion = z.infer<typeof exclusionSchema>;
export const exclusionDataSchema = z.object({ exclusion: exclusionSchema.nullable() });

/** The start of the UTC period holding `at_ms`. */
export function limitPeriodStartMs(period: LimitPeriod, at_ms: number): number {
  const at = new Date(at_ms);
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (period === "day") return day;
  if (period === "week") return day - ((at.getUTCDay() + 6) % 7) * 86_400_000;
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
}

/** The start of the next UTC period after the one holding `at_ms` (when "used" resets). */
export function limitPeriodEndMs(period: LimitPeriod, at_ms: number): number {
  const start = new Date(limitPeriodStartMs(period, at_ms));
  if (period === "day") return start.getTime() + 86_400_000;
  if (period === "week") return start.getTime() + 7 * 86_400_000;
  return Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
}

/** When a time-out or self-exclusion started at `at_ms` ends (months by the calendar, UTC). */
export function exclusionEndMs(request: StartExclusionRequest, at_ms: number): number {
  if (request.kind === "time_out") return at_ms + request.days * 86_400_000;
  const at = new Date(at_ms);
  const end = new Date(at_ms);
  end.setUTCMonth(at.getUTCMonth() + request.months);
  return end.getTime();
}
