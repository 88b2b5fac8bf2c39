import { type Asset, roundPrice } from "@tp/domain/catalogue";
import type { FeedSource } from "../feeds/tick.ts";
import type { HistoryRequester } from "./history-request.ts";
import type { BackfilledCandle } from "./price-history.ts";

export const minute_ms = 60_000;

/** Binance quotes prices as decimal strings, Finnhub as numbers; both arrive here. */
export type ProviderPrice = string | number | null | undefined;

export type OpenHighLowClose = readonly [
  ProviderPrice,
  ProviderPrice,
  ProviderPrice,
  ProviderPrice,
];

function providerPrice(asset: Asset, value: ProviderPrice): number | string {
  // Number("") is 0 and Number(null) is 0: neither is a price.
  const price =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : Number.NaN;
  if (!Number.isFinite(price)) return `price ${String(value)} is not a finite number`;
  const rounded = roundPrice(asset, price);
  if (!(rounded > 0))
    return `price ${String(value)} is not positive at ${asset.precision} decimals`;
  return rounded;
}

/**
 * A provider's 1-minute candle checked like a provider's tick (providerTick): the bucket a
 * whole minute in epoch ms, every price finite and positive at the asset's precision
 * (rounded with roundPrice), and high and low around open and close. Or why not.
 */
export function providerCandle(
  asset: Asset,
  bucketMs: number,
  [open, high, low, close]: OpenHighLowClose,
  source: FeedSource,
): BackfilledCandle | string {
  if (!(Number.isSafeInteger(bucketMs) && bucketMs > 0 && bucketMs % minute_ms === 0)) {
    return `time ${bucketMs} is not the start of a minute in epoch milliseconds`;
  }
  const prices = [open, high, low, close].map((value) => providerPrice(asset, value));
  const reason = prices.find((price) => typeof price === "string");
  if (reason !== undefined) return reason as string;
  const [o, h, l, c] = prices as [number, number, number, number];
  if (h < Math.max(o, c, l) || l > Math.min(o, c)) {
    return `high ${h} and low ${l} do not bound open ${o} and close ${c}`;
  }
  return { symbol: asset.symbol, bucketMs, open: o, high: h, low: l, close: c, source };
}

/**
 * Gathers one symbol's candles over the pages of a backfill: keeps those in the range
 * asked for (one per minute, oldest first), skips malformed rows and pages, and says so
 * in one warning per backfill, not one per row.
 */
export class CandleCollector {
  readonly #requester: HistoryRequester;
  readonly #symbol: string;
  readonly #candles = new Map<number, BackfilledCandle>();
  #skippedRows = 0;
  #skippedPages = 0;
  #firstReason: string | undefined;

  constructor(requester: HistoryRequester, symbol: string) {
    this.#requester = requester;
    this.#symbol = symbol;
  }

  add(candle: BackfilledCandle | string, fromMs: number, toMs: number): void {
    if (typeof candle === "string") {
      this.skipRow(candle);
      return;
    }
    // Outside the page asked for is not malformed (a provider may round the range): dropped.
    if (candle.bucketMs < fromMs || candle.bucketMs >= toMs) return;
    this.#candles.set(candle.bucketMs, candle);
  }

  skipRow(reason: string): void {
    this.#skippedRows += 1;
    this.#firstReason ??= reason;
  }

  skipPage(reason: string): void {
    this.#skippedPages += 1;
    this.#firstReason ??= reason;
  }

  finish(): BackfilledCandle[] {
    if (this.#skippedRows > 0 || this.#skippedPages > 0) {
      this.#requester.warn(
        {
          symbol: this.#symbol,
          skippedRows: this.#skippedRows,
          skippedPages: this.#skippedPages,
          reason: this.#requester.redact(this.#firstReason ?? ""),
        },
        "skipped malformed history from the provider",
      );
    }
    return [...this.#candles.values()].sort((a, b) => a.bucketMs - b.bucketMs);
  }
}
