import { findAsset } from "@tp/domain/catalogue";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { Clock } from "../clock.ts";
import { binanceSymbols } from "../feeds/binance-symbols.ts";
import { binance_rest_url_default } from "../feeds/feed-config.ts";
import type { Sleep } from "../feeds/sleep.ts";
import {
  HistoryRequester,
  type HistoryRequestLimits,
  HistoryUnavailableError,
} from "./history-request.ts";
import type { HistorySource } from "./history-source.ts";
import type { BackfilledCandle } from "./price-history.ts";
import { CandleCollector, minute_ms, providerCandle } from "./provider-candles.ts";

/** Binance's largest kline page (GET /api/v3/klines `limit`): 1000 one-minute candles. */
export const binance_klines_per_request_max = 1000;

export interface BinanceHistoryOptions {
  /** Catalogue symbols; each must be in binanceSymbols. */
  symbols: readonly string[];
  /** REST base without path (BINANCE_REST_URL); tests point it at a local fake. */
  baseUrl?: string;
  logger: FastifyBaseLogger;
  clock: Clock;
  limits?: Partial<HistoryRequestLimits>;
  sleep?: Sleep;
}

/**
 * One kline (docs: "Kline/Candlestick data"): [open time, open, high, low, close, volume,
 * close time, quote volume, trades, taker base volume, taker quote volume, ignore]. Prices
 * are decimal strings, as in the trade stream.
 */
const kline = z
  .tuple([z.number(), z.string(), z.string(), z.string(), z.string(), z.string(), z.number()])
  .rest(z.unknown());

/** What a refused request means to the operator, by HTTP status. */
const refusalMeaning: Readonly<Record<number, string>> = {
  403: "Binance's firewall refused the request; history is not available from this address",
  451: "Binance refuses service to this server's location; point BINANCE_REST_URL (and BINANCE_WS_URL) at an endpoint that serves it, or price crypto from another source",
};

/**
 * Crypto history from Binance's public klines (no key): 1-minute candles, paged by 1000.
 * BTCUSD is Bitcoin Cash here as in the live feed (binanceSymbols).
 */
export class BinanceHistory implements HistorySource {
  readonly source = "binance" as const;
  readonly symbols: readonly string[];
  readonly #baseUrl: string;
  readonly #requester: HistoryRequester;
  readonly #refusalsLogged = new Set<number>();

  constructor(options: BinanceHistoryOptions) {
    for (const symbol of options.symbols) {
      if (binanceSymbols[symbol] === undefined) {
        throw new Error(`BinanceHistory: Binance has no ${symbol}`);
      }
    }
    this.symbols = [...options.symbols];
    this.#baseUrl = (options.baseUrl ?? binance_rest_url_default).replace(/\/+$/, "");
    this.#requester = new HistoryRequester({
      source: this.source,
      logger: options.logger,
      clock: options.clock,
      limits: options.limits,
      sleep: options.sleep,
    });
  }

  async minuteCandles(
    symbol: string,
    fromMs: number,
    toMs: number,
    signal: AbortSignal,
  ): Promise<BackfilledCandle[]> {
    const binanceSymbol = binanceSymbols[symbol];
    const asset = findAsset(symbol);
    if (!this.symbols.includes(symbol) || binanceSymbol === undefined || !asset) {
      throw new Error(`BinanceHistory: ${symbol} is not one of its symbols`);
    }
    const collector = new CandleCollector(this.#requester, symbol);
    const pageMs = binance_klines_per_request_max * minute_ms;
    for (let pageFromMs = Math.ceil(fromMs / minute_ms) * minute_ms; pageFromMs < toMs; ) {
      const pageToMs = Math.min(pageFromMs + pageMs, toMs);
      const url = new URL(`${this.#baseUrl}/api/v3/klines`);
      url.searchParams.set("symbol", binanceSymbol);
      url.searchParams.set("interval", "1m");
      url.searchParams.set("startTime", String(pageFromMs));
      // Binance's endTime is inclusive; the range asked for excludes toMs.
      url.searchParams.set("endTime", String(pageToMs - 1));
      url.searchParams.set("limit", String(binance_klines_per_request_max));
      const reply = await this.#requester.get(url, signal);
      if (reply.kind === "refused") throw this.#refused(binanceSymbol, reply.status, reply.text);
      if (reply.kind === "not-json") collector.skipPage(reply.text);
      else if (!Array.isArray(reply.body)) collector.skipPage("not an array of klines");
      else {
        for (const row of reply.body) {
          const parsed = kline.safeParse(row);
          if (!parsed.success) {
            collector.skipRow("not a kline [openTime, open, high, low, close, volume, closeTime…]");
            continue;
          }
          const [openTime, open, high, low, close] = parsed.data;
          collector.add(
            providerCandle(asset, openTime, [open, high, low, close], this.source),
            pageFromMs,
            pageToMs,
          );
        }
      }
      pageFromMs = pageToMs;
    }
    return collector.finish();
  }

  #refused(binanceSymbol: string, status: number, text: string): HistoryUnavailableError {
    // Each refusal is explained once: the same answer for every symbol says nothing new.
    if (!this.#refusalsLogged.has(status)) {
      this.#refusalsLogged.add(status);
      this.#requester.logger.warn(
        {
          status,
          reply: text.slice(0, 200),
          symbols: this.symbols,
          meaning:
            refusalMeaning[status] ??
            "Binance refused the klines request; the charts of these symbols start from live ticks until it answers",
        },
        "Binance refused a history request",
      );
    }
    return new HistoryUnavailableError(
      `binance: klines of ${binanceSymbol} refused with HTTP ${status} ${text.slice(0, 120)}`,
    );
  }
}
