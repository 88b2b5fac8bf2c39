import { findAsset } from "@tp/domain/catalogue";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { Clock } from "../clock.ts";
import { finnhub_rest_url_default } from "../feeds/feed-config.ts";
import { finnhubSymbols } from "../feeds/finnhub-symbols.ts";
import type { Sleep } from "../feeds/sleep.ts";
import {
  HistoryRequester,
  type HistoryRequestLimits,
  HistoryUnavailableError,
} from "./history-request.ts";
import type { HistorySource } from "./history-source.ts";
import type { BackfilledCandle } from "./price-history.ts";
import {
  CandleCollector,
  minute_ms,
  type OpenHighLowClose,
  type ProviderPrice,
  providerCandle,
} from "./provider-candles.ts";

/**
 * Minutes asked for in one request. A day keeps a 24-hour backfill at one request per
 * symbol (30 symbols take half a minute at the free tier's pace) and a reply well under
 * the size limit.
 */
export const finnhub_candles_per_request_max = 1440;

/**
 * The free tier allows 60 calls a minute: one a second, shared by every backfill of the
 * process (the live socket does not count).
 */
export const finnhub_request_interval_ms = 1_000;

/** Finnhub's candle endpoints, by the kind of symbol (OANDA's CFDs are under forex). */
type CandleEndpoint = "forex" | "crypto" | "stock";

export function candleEndpoint(finnhubSymbol: string): CandleEndpoint {
  if (finnhubSymbol.startsWith("OANDA:")) return "forex";
  if (finnhubSymbol.startsWith("BINANCE:")) return "crypto";
  return "stock";
}

export interface FinnhubHistoryOptions {
  /** Catalogue symbols; each must be in finnhubSymbols. */
  symbols: readonly string[];
  apiKey: string;
  /** REST base without path (FINNHUB_REST_URL); tests point it at a local fake. */
  baseUrl?: string;
  logger: FastifyBaseLogger;
  clock: Clock;
  limits?: Partial<HistoryRequestLimits>;
  sleep?: Sleep;
}

/** Finnhub's candle reply (docs: "Forex Candles", "Crypto Candles", "Stock Candles"). */
const candleReply = z.discriminatedUnion("s", [
  z.object({ s: z.literal("no_data") }),
  z.object({
    s: z.literal("ok"),
    t: z.array(z.unknown()),
    o: z.array(z.unknown()),
    h: z.array(z.unknown()),
    l: z.array(z.unknown()),
    c: z.array(z.unknown()),
  }),
]);

/** A cell of a price column as providerCandle reads it (anything else is no price). */
const priceCell = (value: unknown): ProviderPrice =>
  typeof value === "number" || typeof value === "string" ? value : undefined;

/**
 * Forex, commodities, indices, stocks (and crypto if configured) history from Finnhub's
 * candle endpoints, with the key of the live feed. The free tier does not include every
 * endpoint: a refusal (403) is explained once per endpoint and that endpoint is not asked
 * again until restart; the charts of its symbols then start from live ticks. The key
 * travels in the URL, so it is scrubbed from every log line and error.
 */
export class FinnhubHistory implements HistorySource {
  readonly source = "finnhub" as const;
  readonly symbols: readonly string[];
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #requester: HistoryRequester;
  /** Endpoints the provider refused (by 401, every one). */
  readonly #refused = new Set<CandleEndpoint>();

  constructor(options: FinnhubHistoryOptions) {
    if (options.apiKey === "") throw new Error("FinnhubHistory: an API key is required");
    for (const symbol of options.symbols) {
      if (finnhubSymbols[symbol] === undefined) {
        throw new Error(`FinnhubHistory: Finnhub has no ${symbol}`);
      }
    }
    this.symbols = [...options.symbols];
    this.#apiKey = options.apiKey;
    this.#baseUrl = (options.baseUrl ?? finnhub_rest_url_default).replace(/\/+$/, "");
    this.#requester = new HistoryRequester({
      source: this.source,
      logger: options.logger,
      clock: options.clock,
      secrets: [options.apiKey],
      limits: { request_interval_ms: finnhub_request_interval_ms, ...options.limits },
      sleep: options.sleep,
    });
  }

  async minuteCandles(
    symbol: string,
    fromMs: number,
    toMs: number,
    signal: AbortSignal,
  ): Promise<BackfilledCandle[]> {
    const finnhubSymbol = finnhubSymbols[symbol];
    const asset = findAsset(symbol);
    if (!this.symbols.includes(symbol) || finnhubSymbol === undefined || !asset) {
      throw new Error(`FinnhubHistory: ${symbol} is not one of its symbols`);
    }
    const endpoint = candleEndpoint(finnhubSymbol);
    const collector = new CandleCollector(this.#requester, symbol);
    const pageMs = finnhub_candles_per_request_max * minute_ms;
    for (let pageFromMs = Math.ceil(fromMs / minute_ms) * minute_ms; pageFromMs < toMs; ) {
      if (this.#refused.has(endpoint)) break;
      const pageToMs = Math.min(pageFromMs + pageMs, toMs);
      const url = new URL(`${this.#baseUrl}/api/v1/${endpoint}/candle`);
      url.searchParams.set("symbol", finnhubSymbol);
      url.searchParams.set("resolution", "1");
      // Unix seconds, both inclusive; the range asked for excludes toMs.
      url.searchParams.set("from", String(pageFromMs / 1000));
      url.searchParams.set("to", String(Math.floor((pageToMs - 1) / 1000)));
      url.searchParams.set("token", this.#apiKey);
      const reply = await this.#requester.get(url, signal);
      if (reply.kind === "refused") {
        this.#refuse(endpoint, reply.status, reply.text, finnhubSymbol);
        break;
      }
      if (reply.kind === "not-json") collector.skipPage(reply.text);
      else {
        const parsed = candleReply.safeParse(reply.body);
        if (!parsed.success) {
          collector.skipPage('not a candle reply ({ s: "ok" | "no_data", t, o, h, l, c })');
        } else if (parsed.data.s === "ok") {
          const { t, o, h, l, c } = parsed.data;
          if (![o, h, l, c].every((column) => column.length === t.length)) {
            collector.skipPage("t, o, h, l and c are not the same length");
          } else {
            for (const [index, time] of t.entries()) {
              const bucketMs = typeof time === "number" ? time * 1000 : Number.NaN;
              const prices: OpenHighLowClose = [
                priceCell(o[index]),
                priceCell(h[index]),
                priceCell(l[index]),
                priceCell(c[index]),
              ];
              collector.add(
                providerCandle(asset, bucketMs, prices, this.source),
                pageFromMs,
                pageToMs,
              );
            }
          }
        }
      }
      pageFromMs = pageToMs;
    }
    return collector.finish();
  }

  /**
   * A refusal is not retried: the same key gets the same answer. It is explained once, with
   * what it means for the operator, and the endpoint (every endpoint, for a bad key) is
   * left alone until restart; other statuses are raised for the backfill to log.
   */
  #refuse(endpoint: CandleEndpoint, status: number, text: string, finnhubSymbol: string) {
    if (status === 401 || status === 403) {
      const endpoints: CandleEndpoint[] =
        status === 401 ? ["forex", "crypto", "stock"] : [endpoint];
      const newlyRefused = endpoints.filter((each) => !this.#refused.has(each));
      for (const each of newlyRefused) this.#refused.add(each);
      if (newlyRefused.length === 0) return;
      const affected = this.symbols.filter((symbol) =>
        newlyRefused.includes(candleEndpoint(finnhubSymbols[symbol] ?? "")),
      );
      this.#requester.logger.warn(
        {
          endpoint: `/api/v1/${endpoint}/candle`,
          status,
          reply: text.slice(0, 200),
          symbols: affected,
          meaning:
            status === 401
              ? "Finnhub does not accept FEED_API_KEY: no history for any of its symbols (check the key)"
              : `this Finnhub plan does not include ${endpoint} candles: the charts of these symbols start from live ticks; a plan with ${endpoint} candles fills them (not asked again until restart)`,
        },
        "Finnhub refused a history request",
      );
      return;
    }
    throw new HistoryUnavailableError(
      `finnhub: ${endpoint} candles of ${finnhubSymbol} refused with HTTP ${status} ${text.slice(0, 120)}`,
    );
  }
}
