import { readFileSync } from "node:fs";
import { assetCatalogue } from "@tp/domain/catalogue";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../src/clock.ts";
import { FinnhubFeed } from "../../src/feeds/finnhub-feed.ts";
import { finnhubSymbols } from "../../src/feeds/finnhub-symbols.ts";
import type { SocketLimits } from "../../src/feeds/reconnecting-socket.ts";
import { captureLog } from "./support/capture-log.ts";
import { take, waitFor, within } from "./support/collect.ts";
import { FakeProvider } from "./support/fake-provider.ts";

const recordedMessages: object[] = JSON.parse(
  readFileSync(new URL("./fixtures/finnhub-trades.json", import.meta.url), "utf8"),
);
const malformedMessages: string[] = JSON.parse(
  readFileSync(new URL("./fixtures/finnhub-malformed.json", import.meta.url), "utf8"),
);

const api_key = "fh-SECRET-key-4242";
const symbols = ["EURUSD", "USDJPY", "XAUUSD", "HK50", "US500", "AAPL"];

const fastLimits: Partial<SocketLimits> = {
  reconnect_delay_ms_base: 5,
  reconnect_delay_ms_max: 20,
  idle_timeout_ms: 2_000,
  close_handshake_ms_max: 200,
};

function subscriptions(finnhub: readonly string[]): string[] {
  return finnhub.map((symbol) => JSON.stringify({ type: "subscribe", symbol }));
}

describe("FinnhubFeed against a fake Finnhub", () => {
  let provider: FakeProvider;
  let controller: AbortController;
  let log: ReturnType<typeof captureLog>;

  beforeEach(async () => {
    provider = await FakeProvider.start();
    controller = new AbortController();
    log = captureLog();
  });

  afterEach(async () => {
    controller.abort();
    await provider.close();
  });

  function feed() {
    return new FinnhubFeed({
      symbols,
      apiKey: api_key,
      baseUrl: provider.url,
      clock: systemClock,
      logger: log.logger,
      limits: fastLimits,
    });
  }

  it("maps every catalogue symbol to the documented Finnhub symbol", () => {
    expect(Object.keys(finnhubSymbols).sort()).toEqual(
      assetCatalogue.map((asset) => asset.symbol).sort(),
    );
    expect(finnhubSymbols).toMatchObject({
      EURUSD: "OANDA:EUR_USD",
      USDJPY: "OANDA:USD_JPY",
      XAUUSD: "OANDA:XAU_USD",
      NGASUSD: "OANDA:NATGAS_USD",
      WTICOUSD: "OANDA:WTICO_USD",
      HK50: "OANDA:HK33_HKD",
      US500: "OANDA:SPX500_USD",
      US100: "OANDA:NAS100_USD",
      DE30: "OANDA:DE30_EUR",
      AAPL: "AAPL",
      BTCUSD: "BINANCE:BCHUSDT",
    });
  });

  it("sends the key in the URL and one subscription per symbol, again after a reconnect", async () => {
    const finnhub = feed();
    const iterator = finnhub.ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = iterator.next();
    const expected = subscriptions([
      "OANDA:EUR_USD",
      "OANDA:USD_JPY",
      "OANDA:XAU_USD",
      "OANDA:HK33_HKD",
      "OANDA:SPX500_USD",
      "AAPL",
    ]);
    const first = await provider.connection(0);
    expect(first.path).toBe(`/?token=${api_key}`);
    await waitFor(() => first.received.length === expected.length, "subscriptions");
    expect(first.received).toEqual(expected);

    first.socket.terminate();
    const second = await provider.connection(1);
    await waitFor(() => second.received.length === expected.length, "subscriptions again");
    expect(second.received).toEqual(expected);
    expect(finnhub.stats()).toMatchObject({ connects: 2, reconnects: 1 });
    controller.abort();
    expect((await pending).done).toBe(true);
  });

  it("maps recorded trades to catalogue symbols, ignoring pings", async () => {
    const finnhub = feed();
    const pending = take(finnhub.ticks(controller.signal)[Symbol.asyncIterator](), 7);
    const connection = await provider.connection(0);
    for (const message of recordedMessages) connection.socket.send(JSON.stringify(message));
    expect(await pending).toEqual([
      { symbol: "EURUSD", price: 1.08452, at: 1718000000123, source: "finnhub" },
      { symbol: "USDJPY", price: 155.123, at: 1718000000150, source: "finnhub" },
      { symbol: "XAUUSD", price: 2301.234, at: 1718000000201, source: "finnhub" },
      { symbol: "HK50", price: 18012.35, at: 1718000000302, source: "finnhub" },
      { symbol: "US500", price: 5301.46, at: 1718000000303, source: "finnhub" },
      { symbol: "AAPL", price: 191.25, at: 1718000000404, source: "finnhub" },
      { symbol: "AAPL", price: 191.26, at: 1718000000405, source: "finnhub" },
    ]);
    expect(finnhub.stats()).toMatchObject({ messages: 6, ticks: 7, malformed: 0 });
  });

  it("drops and counts malformed messages and entries, keeping good entries beside them", async () => {
    const finnhub = feed();
    const pending = take(finnhub.ticks(controller.signal)[Symbol.asyncIterator](), 2);
    const connection = await provider.connection(0);
    for (const message of malformedMessages) connection.socket.send(message);
    connection.socket.send(
      JSON.stringify({ type: "error", msg: "Subscribing to too many symbols" }),
    );
    connection.socket.send(
      JSON.stringify({
        type: "trade",
        data: [{ s: "OANDA:EUR_USD", p: 1.0851, t: 1718000002000 }],
      }),
    );
    expect(await pending).toEqual([
      // The good half of the last malformed fixture, whose first entry has a negative price.
      { symbol: "AAPL", price: 190.5, at: 1718000001001, source: "finnhub" },
      { symbol: "EURUSD", price: 1.0851, at: 1718000002000, source: "finnhub" },
    ]);
    expect(finnhub.stats()).toMatchObject({
      messages: malformedMessages.length + 2,
      malformed: malformedMessages.length,
      providerErrors: 1,
      ticks: 2,
    });
    expect(log.text()).toContain("Subscribing to too many symbols");
  });

  it("reconnects after an abrupt disconnect and the ticks resume", async () => {
    const finnhub = feed();
    const pending = take(finnhub.ticks(controller.signal)[Symbol.asyncIterator](), 2);
    const first = await provider.connection(0);
    first.socket.send(JSON.stringify({ type: "trade", data: [{ s: "AAPL", p: 190, t: 1 }] }));
    first.socket.terminate();
    const second = await provider.connection(1);
    second.socket.send(JSON.stringify({ type: "trade", data: [{ s: "AAPL", p: 191, t: 2 }] }));
    expect((await pending).map((tick) => tick.price)).toEqual([190, 191]);
  });

  it("never writes the API key to the log, even when the provider or ws quote it", async () => {
    await provider.close();
    // The first handshake is refused, as Finnhub does for a bad key.
    provider = await FakeProvider.start({ refuse: (attempt) => (attempt === 0 ? 401 : undefined) });
    const finnhub = feed();
    const pending = take(finnhub.ticks(controller.signal)[Symbol.asyncIterator](), 1);
    const connection = await provider.connection(0);
    expect(connection.path).toContain(api_key);
    connection.socket.send(JSON.stringify({ type: "error", msg: `Invalid token ${api_key}` }));
    connection.socket.send(`not json ${api_key}`);
    connection.socket.send(JSON.stringify({ type: "trade", data: [{ s: "AAPL", p: 190, t: 1 }] }));
    await pending;
    connection.socket.close(4000, `bye ${api_key}`);
    await provider.connection(1);
    controller.abort();
    await within(provider.connections[1]!.closed, 1_000, "closed");

    const text = log.text();
    expect(text).not.toContain(api_key);
    expect(text).not.toContain("4242");
    // The log did describe all of it, with the URL minus its token.
    expect(text).toContain(`"url":"${provider.url}/"`);
    expect(text).toContain("Unexpected server response: 401");
    expect(text).toContain("Invalid token [redacted]");
    expect(text).toContain("not json [redacted]");
    expect(text).toContain("bye [redacted]");
  });

  it("needs an API key and refuses symbols it cannot map", () => {
    const base = { clock: systemClock, logger: log.logger };
    expect(() => new FinnhubFeed({ ...base, symbols: ["AAPL"], apiKey: "" })).toThrow(/API key/);
    expect(() => new FinnhubFeed({ ...base, symbols: ["SOLUSDT"], apiKey: api_key })).toThrow(
      /Finnhub has no SOLUSDT/,
    );
  });
});
