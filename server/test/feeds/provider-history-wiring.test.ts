import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.ts";
import { databaseKindsUnderTest } from "../../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../../src/testing/test-platform.ts";
import { FakeProviders } from "../support/fake-providers.ts";
import { waitFor } from "./support/collect.ts";
import { FakeProvider } from "./support/fake-provider.ts";

const klines_path = "/api/v3/klines";
const minute_ms = 60_000;
const startMs = Date.parse("2026-01-15T12:00:30Z");

/** Binance's klines reply for every minute of [startTime, endTime], as its REST API gives it. */
function klinesFor(startTime: number, endTime: number) {
  const rows: unknown[] = [];
  for (let at = Math.ceil(startTime / minute_ms) * minute_ms; at <= endTime; at += minute_ms) {
    rows.push([
      at,
      "450.00",
      "451.00",
      "449.00",
      "450.50",
      "10",
      at + minute_ms - 1,
      "0",
      1,
      "0",
      "0",
      "0",
    ]);
  }
  return rows;
}

/**
 * Issue 11, item 1: a real feed's history comes from the provider's history API on start and
 * after every gap in its live line — the platform as it runs, against fake Binance servers.
 */
describe.each(databaseKindsUnderTest())("provider history on %s", (kind) => {
  let platform: TestPlatform | undefined;
  let rest: FakeProviders | undefined;
  let socket: FakeProvider | undefined;
  afterEach(async () => {
    await platform?.close();
    await rest?.close();
    await socket?.close();
  });

  it("backfills Binance's klines on start and again for the gap after the stream reconnects", async () => {
    rest = await FakeProviders.start();
    socket = await FakeProvider.start();
    rest.on(klines_path, (request) => ({
      kind: "json",
      body: klinesFor(Number(request.query.get("startTime")), Number(request.query.get("endTime"))),
    }));
    const clock = new ManualClock(new Date(startMs));
    platform = await startTestPlatform(kind, {
      clock,
      feeds: "from-config",
      env: {
        FEED_SOURCES: "BTCUSDT=binance",
        BINANCE_WS_URL: socket.url,
        BINANCE_REST_URL: rest.url("/"),
        PRICE_HISTORY_HOURS: "1",
      },
    });
    const database = platform.database;
    const backfilled = async () =>
      (
        await database.query<{ bucket: Date }>(
          "SELECT bucket FROM candles_1m WHERE symbol = 'BTCUSDT' AND backfilled ORDER BY bucket",
        )
      ).rows.map((row) => row.bucket.getTime());

    // On start: the last hour, up to the current minute, in the background.
    await waitFor(() => rest!.hits(klines_path).length > 0, "a klines request", 10_000);
    const first = rest.hits(klines_path)[0]!;
    expect(first.query.get("symbol")).toBe("BTCUSDT");
    expect(first.query.get("interval")).toBe("1m");
    const currentMinuteMs = Math.floor(startMs / minute_ms) * minute_ms;
    expect(Number(first.query.get("startTime"))).toBe(currentMinuteMs - 60 * minute_ms);
    let stored: number[] = [];
    for (const deadline = Date.now() + 10_000; stored.length < 60 && Date.now() < deadline; ) {
      stored = await backfilled();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stored).toHaveLength(60);
    expect(stored.at(-1)).toBe(currentMinuteMs - minute_ms);

    // The stream drops; ten minutes pass before it is back: that gap is asked for again.
    const connection = await socket.connection(0, 10_000);
    const requestsBefore = rest.hits(klines_path).length;
    clock.advance(10 * minute_ms);
    connection.socket.terminate();
    await socket.connection(1, 15_000);
    await waitFor(() => rest!.hits(klines_path).length > requestsBefore, "a gap request", 10_000);
    const gapRequest = rest.hits(klines_path)[requestsBefore]!;
    expect(Number(gapRequest.query.get("startTime"))).toBeLessThanOrEqual(currentMinuteMs);
    const gapEndMinuteMs = Math.floor(clock.now().getTime() / minute_ms) * minute_ms;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      stored = await backfilled();
      if (stored.at(-1) === gapEndMinuteMs - minute_ms) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stored.at(-1)).toBe(gapEndMinuteMs - minute_ms);
  }, 60_000);
});
