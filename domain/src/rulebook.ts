import { z } from "zod";
import { expirations } from "./catalogue.ts";

/**
 * The rulebook (issue 15 item 4): how every trade is settled, when its stake is refunded, and
 * what it pays, published at /rules with a version and a change log. Each trade records the
 * version it was placed under. Changing the payout table or a rule's parameter without a new
 * version fails a test (server/test/rulebook.test.ts compares the code with the latest
 * version's snapshot), so a trade's version always names the rules it was placed under.
 */

/** The settlement rule's parameters (server/src/trading/settlement.ts reads them from here). */
export const settlement_rule_parameters = {
  /** A tick stamped at or before an expiry may still arrive this long after it. */
  settlement_grace_ms: 2_000,
  /** When nothing was recorded after an expiry, settlement waits this long, then refunds. */
  settlement_feed_wait_ms: 15_000,
} as const;

export interface RulebookVersion {
  version: number;
  /** The day it took effect (UTC). */
  effective_from: string;
  /** What changed, in a sentence or two. */
  summary: string;
  /** The payout table and the rule's parameters as they were in this version. */
  payout_percent_by_seconds: Record<string, number>;
  parameters: { settlement_grace_ms: number; settlement_feed_wait_ms: number };
}

/** Every version, oldest first; the last one is in force. */
export const rulebook_versions: readonly RulebookVersion[] = [
  {
    version: 1,
    effective_from: "2026-11-24",
    summary:
      "First published rulebook: settlement at the price in force at the expiry instant (PRODUCT.md D1), refunds when no price was recorded or the feed was not live across the expiry, and the payout table of SPEC §9.",
    payout_percent_by_seconds: { 30: 85, 60: 80, 300: 75, 900: 70, 1800: 65, 3600: 60 },
    parameters: { settlement_grace_ms: 2_000, settlement_feed_wait_ms: 15_000 },
  },
];

export const rulebook_version_current: number = rulebook_versions.at(-1)!.version;

/** The payout table in force, from the catalogue the trade form and the server use. */
export function currentPayoutTable(): Record<string, number> {
  return Object.fromEntries(expirations.map((e) => [String(e.seconds), e.payoutPercent]));
}

/** The rules in words, each with the parameters it names (the /rules page shows them). */
export const rulebook_rules = [
  {
    id: "entry",
    title: "Entry price",
    text: "The entry price is the price in force when the platform accepts the trade: the latest tick of the asset's feed, provided the market is open and that tick is no older than the operator's entry-price age limit (shown below). Otherwise the trade is refused, never placed on an old price.",
  },
  {
    id: "exit",
    title: "Exit price",
    text: `The exit price is the price in force at the expiry instant (the trade's start plus its duration): the last tick stamped at or before it. A trade settles only once a tick after the expiry shows that price is final, or once ${settlement_rule_parameters.settlement_grace_ms / 1000} seconds have passed after the expiry for a late tick to arrive.`,
  },
  {
    id: "outcome",
    title: "Outcome",
    text: "A call wins when the exit price is above the entry price; a put wins when it is below. Equal prices are a tie. No other rule decides an outcome, and no setting exists to change that.",
  },
  {
    id: "payout",
    title: "Payout",
    text: "A winning trade pays back its stake plus the stake times the payout percentage of its duration (table below), rounded down to the cent. A tie pays back the stake. A losing trade pays nothing.",
  },
  {
    id: "refund-no-price",
    title: "Refund: no price recorded",
    text: `When no price at all was recorded after the expiry within ${settlement_rule_parameters.settlement_feed_wait_ms / 1000} seconds, the stake is refunded (status tie), with the reason on the trade.`,
  },
  {
    id: "refund-feed-down",
    title: "Refund: feed not live across the expiry",
    text: "When the recorded history shows the asset's feed was not live across the expiry instant (no recorded price shortly before and after it), the stake is refunded (status tie) rather than settled at a frozen price, with the reason on the trade.",
  },
] as const;

/** GET /rules: the rulebook in force, its history, and the operator's entry-price age limits. */
export const rulebookSchema = z.object({
  version: z.number().int(),
  rules: z.array(z.object({ id: z.string(), title: z.string(), text: z.string() })),
  payout_table: z.array(
    z.object({ seconds: z.number().int(), label: z.string(), payout_percent: z.number().int() }),
  ),
  /** Per asset class, the oldest a tick may be to serve as an entry price (ENTRY_PRICE_MAX_AGE_MS). */
  entry_price_max_age_ms: z.record(z.string(), z.number().int()),
  versions: z.array(
    z.object({
      version: z.number().int(),
      effective_from: z.string(),
      summary: z.string(),
      payout_percent_by_seconds: z.record(z.string(), z.number().int()),
      parameters: z.object({
        settlement_grace_ms: z.number().int(),
        settlement_feed_wait_ms: z.number().int(),
      }),
    }),
  ),
});
export type Rulebook = z.infer<typeof rulebookSchema>;

/** The rulebook as GET /rules answers it, less the operator's settings. */
export function rulebookView(entry_price_max_age_ms: Record<string, number>): Rulebook {
  return {
    version: rulebook_version_current,
    rules: rulebook_rules.map((rule) => ({ ...rule })),
    payout_table: expirations.map((e) => ({
      seconds: e.seconds,
      label: e.label,
      payout_percent: e.payoutPercent,
    })),
    entry_price_max_age_ms,
    versions: rulebook_versions.map((v) => ({ ...v })),
  };
}
