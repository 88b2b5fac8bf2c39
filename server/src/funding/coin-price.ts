import { findAsset } from "@tp/domain/catalogue";
import type { CoinPrice } from "@tp/domain/funding";
import { coinNetworkOf } from "@tp/domain/payment-uri";
import type { AppContext } from "../app-context.ts";
import { entryStaleAfterMs } from "../prices/market-status.ts";

/**
 * The live price of a crypto method's coin, for the deposit step's amount in the coin
 * (issue 13): the newest tick of its catalogue symbol from a real feed, no older than the
 * age a trade would accept it at. A simulated price, a stale one or none at all gives null,
 * and the trader is then told the dollar amount only: never a made-up coin figure.
 */
export function liveCoinPrice(
  context: Pick<AppContext, "config" | "clock" | "marketData">,
  methodId: string,
): CoinPrice | null {
  const network = coinNetworkOf(methodId);
  const symbol = network?.price_symbol;
  if (!network || !symbol) return null;
  const asset = findAsset(symbol);
  const tick = context.marketData.store.last(symbol);
  if (!asset || !tick || tick.source === "simulated") return null;
  if (context.clock.now().getTime() - tick.at > entryStaleAfterMs(context.config, asset)) {
    return null;
  }
  return {
    symbol,
    coin: network.coin,
    quote_currency: "USDT",
    price: tick.price,
    at: new Date(tick.at).toISOString(),
    source: tick.source,
  };
}
