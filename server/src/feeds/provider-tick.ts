import { findAsset, roundPrice } from "@tp/domain/catalogue";
import type { FeedSource, Tick } from "./tick.ts";

/**
 * A tick from a provider's trade, or the reason it is rejected. Providers are outside our
 * control, so every price and time is checked before it can settle a trade.
 */
export function providerTick(
  symbol: string,
  price: number,
  at: number,
  source: FeedSource,
): Tick | string {
  const asset = findAsset(symbol);
  if (!asset) return `${symbol} is not in the catalogue`;
  if (!Number.isFinite(price)) return `price ${price} is not a finite number`;
  const rounded = roundPrice(asset, price);
  if (!(rounded > 0)) return `price ${price} is not positive at ${asset.precision} decimals`;
  if (!(Number.isSafeInteger(at) && at > 0)) return `time ${at} is not epoch milliseconds`;
  return { symbol, price: rounded, at, source };
}
