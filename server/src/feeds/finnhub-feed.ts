import { z } from "zod";
import type { FeedGapListener, FeedStats, ObservableFeed } from "./feed-stats.ts";
import { finnhubSymbols } from "./finnhub-symbols.ts";
import { providerTick } from "./provider-tick.ts";
import {
  type DecodedMessage,
  ReconnectingSocket,
  type SocketFeedOptions,
} from "./reconnecting-socket.ts";
import type { Tick } from "./tick.ts";

export const finnhub_ws_url_default = "wss://ws.finnhub.io";

export interface FinnhubFeedOptions extends SocketFeedOptions {
  /** Catalogue symbols to stream; each must be in finnhubSymbols. */
  symbols: readonly string[];
  apiKey: string;
  /** Without the token; tests point it at a local fake. */
  baseUrl?: string;
}

/** Finnhub's WebSocket frames (docs: "Trades - Last Price Updates"). */
const finnhubMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("trade"), data: z.array(z.unknown()) }),
  z.object({ type: z.literal("ping") }),
  z.object({ type: z.literal("error"), msg: z.string() }),
]);

const finnhubTrade = z.object({ s: z.string(), p: z.number(), t: z.number() });

/**
 * Forex, commodities, indices and stocks (and crypto if configured) from Finnhub's
 * keyed WebSocket: subscribe per symbol after every (re)connection. The key travels in
 * the URL, so the URL is logged without it and the key is scrubbed from every log line.
 */
export class FinnhubFeed implements ObservableFeed {
  readonly source = "finnhub" as const;
  readonly symbols: readonly string[];
  readonly #socket: ReconnectingSocket;

  constructor(options: FinnhubFeedOptions) {
    if (options.apiKey === "") throw new Error("FinnhubFeed: an API key is required");
    this.symbols = [...options.symbols];
    const catalogueByFinnhub = new Map<string, string>();
    for (const symbol of this.symbols) {
      const finnhubSymbol = finnhubSymbols[symbol];
      if (finnhubSymbol === undefined) throw new Error(`FinnhubFeed: Finnhub has no ${symbol}`);
      catalogueByFinnhub.set(finnhubSymbol, symbol);
    }
    const url = new URL(options.baseUrl ?? finnhub_ws_url_default);
    url.searchParams.delete("token");
    const loggedUrl = url.toString();
    url.searchParams.set("token", options.apiKey);
    this.#socket = new ReconnectingSocket(
      {
        source: this.source,
        symbols: this.symbols,
        url: url.toString(),
        loggedUrl,
        secrets: [options.apiKey, encodeURIComponent(options.apiKey)],
        openingMessages: [...catalogueByFinnhub.keys()].map((symbol) =>
          JSON.stringify({ type: "subscribe", symbol }),
        ),
        decode: (text) => decodeFinnhubMessage(text, catalogueByFinnhub),
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

function decodeFinnhubMessage(
  text: string,
  catalogueByFinnhub: ReadonlyMap<string, string>,
): DecodedMessage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ticks: [], rejected: ["not JSON"] };
  }
  const parsed = finnhubMessage.safeParse(json);
  if (!parsed.success) return { ticks: [], rejected: ["not a Finnhub trade, ping or error"] };
  const message = parsed.data;
  if (message.type === "ping") return { ticks: [], rejected: [] };
  if (message.type === "error") return { ticks: [], rejected: [], providerError: message.msg };
  // One frame batches many trades; a bad entry is dropped without losing its neighbours.
  const decoded: DecodedMessage = { ticks: [], rejected: [] };
  for (const entry of message.data) {
    const trade = finnhubTrade.safeParse(entry);
    if (!trade.success) {
      decoded.rejected.push("trade entry without s, p and t");
      continue;
    }
    const symbol = catalogueByFinnhub.get(trade.data.s);
    if (symbol === undefined) {
      decoded.rejected.push(`unsubscribed symbol ${trade.data.s}`);
      continue;
    }
    const tick = providerTick(symbol, trade.data.p, trade.data.t, "finnhub");
    if (typeof tick === "string") decoded.rejected.push(tick);
    else decoded.ticks.push(tick);
  }
  return decoded;
}
