import { marketStateMessages } from "@tp/domain/market-state";
import { tradingRestrictedNotice } from "@tp/domain/restricted-countries";
import { type Exclusion, excludedMessage } from "@tp/domain/trader-limits";
import type { MarketView } from "../../api/markets.ts";
import { closedMessage } from "../../components/market-state-text.ts";

/** Why Call and Put cannot be pressed on the selected market now, in the trader's words. */
export interface MarketBlock {
  kind: "closed" | "halted" | "real_unavailable" | "country_restricted" | "excluded";
  message: string;
}

/**
 * The real account of a resident of a restricted country (issue 14 item 4): Call and Put are
 * off on it before anything is pressed, whatever the market; practice stays open.
 */
export function countryBlock(
  country: string,
  countryRestricted: boolean | undefined,
  isPractice: boolean,
): MarketBlock | null {
  if (isPractice || countryRestricted !== true) return null;
  return { kind: "country_restricted", message: tradingRestrictedNotice(country) };
}

/**
 * A time-out, self-exclusion or closure in force (issue 14 item 2): trading is paused until
 * it ends, whatever the market, on practice too (the server refuses both: the trader asked
 * for a break from trading). Null once its end has passed, or while the break is unknown
 * (the server's refusal stays the authority either way).
 */
export function exclusionBlock(
  exclusion: Exclusion | null | undefined,
  nowMs: number,
): MarketBlock | null {
  if (!exclusion) return null;
  if (exclusion.ends_at !== null && Date.parse(exclusion.ends_at) <= nowMs) return null;
  return { kind: "excluded", message: excludedMessage(exclusion.kind, exclusion.ends_at) };
}

/** The closed or halted state of a market as one line, null while it is open. */
export function marketStateLine(market: MarketView | undefined, nowMs: number): string | null {
  if (market === undefined) return null;
  if (market.state === "closed") return closedMessage(market.next_open_at, nowMs);
  if (market.state === "halted") return marketStateMessages.halted;
  return null;
}

/**
 * What stops a trade on `market` before the trader presses anything (issue 11 items 4, 5
 * and 7): the market is closed, its feed is stale, or the real account may not trade it
 * (its prices are simulated). Unknown (markets not loaded yet): nothing blocks here; the
 * server still checks every trade.
 */
export function marketBlock(
  market: MarketView | undefined,
  isPractice: boolean,
  nowMs: number,
): MarketBlock | null {
  if (market === undefined) return null;
  const stateLine = marketStateLine(market, nowMs);
  if (stateLine !== null) {
    return { kind: market.state === "closed" ? "closed" : "halted", message: stateLine };
  }
  if (!isPractice && !market.real_trading) {
    return { kind: "real_unavailable", message: marketStateMessages.realUnavailable };
  }
  return null;
}
