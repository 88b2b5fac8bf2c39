import type { Asset } from "@tp/domain/catalogue";
import { marketSessionAt } from "@tp/domain/market-hours";
import type { MarketState } from "@tp/domain/market-state";
import type { AppContext } from "../app-context.ts";
import type { Config } from "../config.ts";

export interface MarketStatus {
  state: MarketState;
  /** Epoch ms of the next opening when closed and the calendar knows it. */
  nextOpenAtMs: number | null;
  /** Whether the real account may trade the asset now. */
  realTrading: boolean;
}

type StatusContext = Pick<AppContext, "marketData" | "config" | "bus">;

/**
 * How old the tick in force may be, from the tick's own time, for a trade to be placed on
 * it and for the asset to count as live (issue 11: on a real feed a 10 s old price is a
 * latency-arbitrage window for 30-second contracts). Per asset class (ENTRY_PRICE_MAX_AGE_MS).
 * A simulated asset ticks every SIMULATED_TICK_INTERVAL_MS: it gets at least two intervals,
 * so a slow simulator is not halted between its own ticks.
 */
export function entryStaleAfterMs(
  config: Pick<Config, "ENTRY_PRICE_MAX_AGE_MS" | "FEED_SOURCES" | "SIMULATED_TICK_INTERVAL_MS">,
  asset: Asset,
): number {
  const limitMs = config.ENTRY_PRICE_MAX_AGE_MS[asset.optionType];
  return config.FEED_SOURCES[asset.symbol] === "simulated"
    ? Math.max(limitMs, 2 * config.SIMULATED_TICK_INTERVAL_MS)
    : limitMs;
}

/**
 * Whether the asset's trading calendar applies: always to real feeds; to the simulator only
 * with SIMULATED_MARKET_HOURS=true (it trades around the clock otherwise, labelled simulated
 * either way).
 */
export function calendarApplies(
  config: Pick<Config, "FEED_SOURCES" | "SIMULATED_MARKET_HOURS">,
  asset: Asset,
): boolean {
  return config.FEED_SOURCES[asset.symbol] !== "simulated" || config.SIMULATED_MARKET_HOURS;
}

/**
 * One asset's state now, as GET /markets, the stream, the back office and place-trade see
 * it on this process (issue 11, items 4 and 5): closed outside its trading hours; halted
 * inside them when the tick in force is older than the entry limit, or at once when this
 * process has lost the event bus (its prices may be frozen while the feed moves on
 * elsewhere); open otherwise.
 */
export function marketStatusOf(context: StatusContext, asset: Asset, nowMs: number): MarketStatus {
  const { config } = context;
  const tick = context.marketData.store.last(asset.symbol);
  const realTrading =
    (tick?.source ?? config.FEED_SOURCES[asset.symbol]) !== "simulated" ||
    config.ALLOW_REAL_TRADING_ON_SIMULATED_PRICES;
  if (calendarApplies(config, asset)) {
    const session = marketSessionAt(asset.symbol, nowMs);
    if (!session.open) return { state: "closed", nextOpenAtMs: session.nextOpenAtMs, realTrading };
  }
  const busUp = context.bus.downSinceMs() === null;
  const live = busUp && tick !== undefined && nowMs - tick.at <= entryStaleAfterMs(config, asset);
  return { state: live ? "open" : "halted", nextOpenAtMs: null, realTrading };
}
