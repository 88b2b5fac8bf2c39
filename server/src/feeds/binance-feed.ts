import { z } from "zod";
import { binanceSymbols } from "./binance-symbols.ts";
import type { FeedGapListener, FeedStats, ObservableFeed } from "./feed-stats.ts";
import { providerTick } from "./provider-tick.ts";
import {
  type DecodedMessage,
  ReconnectingSocket,
  type SocketFeedOptions,
} from "./reconnecting-socket.ts";
import type { Tick } from "./tick.ts";

export const binance_ws_url_default = "wss://stream.binance.com:9443";

export interface BinanceFeedOptions extends SocketFeedOptions {
  /** Catalogue symbols to stream; each must be in binanceSymbols. */
  symbols: readonly string[];
  /** Without path; tests point it at a local fake. */
  baseUrl?: string;
}

/** Binance's combined-stream frame carrying a trade (docs: "Trade Streams"). */
const combinedTradeMessage = z.object({
  stream: z.string(),
  data: z.object({
    e: z.literal("trade"),
    s: z.string(),
    // Binance sends prices as decimal strings so they survive JSON exactly.
    p: z.string(),
    T: z.number(),
  }),
});

/**
 * Crypto prices from Binance's public combined trade stream. No key; Binance pings every
 * 20 s (ws answers) and closes every connection after 24 h, after which we reconnect.
 */
export class BinanceFeed implements ObservableFeed {
  readonly source = "binance" as const;
  readonly symbols: readonly string[];
  readonly #socket: ReconnectingSocket;

  constructor(options: BinanceFeedOptions) {
    this.symbols = [...options.symbols];
    const catalogueByBinance = new Map<string, string>();
    for (const symbol of this.symbols) {
      const binanceSymbol = binanceSymbols[symbol];
      if (binanceSymbol === undefined) throw new Error(`BinanceFeed: Binance has no ${symbol}`);
      catalogueByBinance.set(binanceSymbol, symbol);
    }
    const streams = [...catalogueByBinance.keys()].map((name) => `${name.toLowerCase()}@trade`);
    const base = (options.baseUrl ?? binance_ws_url_default).replace(/\/+$/, "");
    const url = `${base}/stream?streams=${streams.join("/")}`;
    this.#socket = new ReconnectingSocket(
      {
        source: this.source,
        symbols: this.symbols,
        url,
        loggedUrl: url,
        secrets: [],
        openingMessages: [],
        decode: (text) => decodeBinanceMessage(text, catalogueByBinance),
      },
      options,
    );
  }

  ticks(signal: AbortSignal): AsyncIterable<Tick> {
    return this.#socket.ticks(signal);
  }

  stats(): FeedStats {
    return this.#socket.stats();
  }

  onGap(listener: FeedGapListener): () => void {
    return this.#socket.onGap(listener);
  }
}

function decodeBinanceMessage(
  text: string,
  catalogueByBinance: ReadonlyMap<string, string>,
): DecodedMessage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ticks: [], rejected: ["not JSON"] };
  }
  const parsed = combinedTradeMessage.safeParse(json);
  if (!parsed.success) return { ticks: [], rejected: ["not a combined-stream trade"] };
  const { s, p, T } = parsed.data.data;
  const symbol = catalogueByBinance.get(s.toUpperCase());
  if (symbol === undefined) return { ticks: [], rejected: [`unsubscribed symbol ${s}`] };
  // Number("") is 0 and Number("1e999") is Infinity; providerTick rejects both.
  const tick = providerTick(symbol, p.trim() === "" ? Number.NaN : Number(p), T, "binance");
  return typeof tick === "string"
    ? { ticks: [], rejected: [tick] }
    : { ticks: [tick], rejected: [] };
}
