import { setTimeout as sleep } from "node:timers/promises";
import { assetCatalogue, findAsset, roundPrice } from "@tp/domain/catalogue";
import type { Tick } from "@tp/server/feeds/tick";
import { recordTicks } from "@tp/server/prices/price-history";
import type { TestPlatform } from "@tp/server/testing/test-platform";

/** How far back the made-up history reaches: past 24 h, so the 24 h change shows too. */
const history_span_ms = 25 * 60 * 60 * 1000;
/** The last hours, which the chart shows, get a tick every 10 s (candles with bodies)… */
const dense_span_ms = 3 * 60 * 60 * 1000;
const dense_step_ms = 10_000;
/** …the rest one every 5 minutes, enough for the 24 h reference price. */
const sparse_step_ms = 5 * 60_000;
/** Relative size of one step of the walk (per 10 s step), by option type. */
const step_volatility: Record<string, number> = {
  forex: 0.00012,
  commodities: 0.00025,
  indices: 0.0002,
  stocks: 0.0004,
  crypto: 0.0006,
};

/**
 * A fresh platform has no price history, so its charts show one candle. For screenshots that
 * look like a market, this writes a random walk for the last 25 hours that
 * ends at each asset's live price (so the chart joins the simulator without a jump). It only
 * shapes what the charts draw: trades, settlement and the audit read the ticks of their own
 * times, which are live.
 */
export async function backfillPriceHistory(platform: TestPlatform, seed = 7): Promise<void> {
  const store = platform.context.marketData.store;
  // The simulator's first ticks arrive within a second of start.
  for (let waited = 0; assetCatalogue.some((asset) => !store.last(asset.symbol)); waited += 100) {
    if (waited > 10_000) throw new Error("the simulator has not priced every asset");
    await sleep(100);
  }
  let state = seed;
  const random = () => {
    // mulberry32: reproducible pictures from one run to the next.
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ticks: Tick[] = [];
  for (const asset of assetCatalogue) {
    const live = store.last(asset.symbol);
    if (!live) continue;
    const volatility = step_volatility[asset.optionType] ?? 0.001;
    let price = live.price;
    // Walks backwards from the live price, stopping short of the live ticks.
    for (let at = live.at - 5_000; at > live.at - history_span_ms; ) {
      const shock = (random() + random() + random() - 1.5) * 2;
      price = price * (1 - volatility * shock);
      const rounded = roundPrice(findAsset(asset.symbol) ?? asset, price);
      ticks.push({ symbol: asset.symbol, price: rounded, at, source: "simulated" });
      at -= live.at - at < dense_span_ms ? dense_step_ms : sparse_step_ms;
    }
  }
  await platform.database.transaction((transaction) => recordTicks(transaction, ticks));
}
