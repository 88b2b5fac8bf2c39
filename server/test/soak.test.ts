import { describe, expect, it } from "vitest";
import { runSoak } from "../../bench/lib/soak-run.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";

/**
 * The soak's CI version (issue 16 item 4; the 30-minute one is `npm run bench -- soak`):
 * the same mix and checks as the benchmark (bench/lib/soak-run.ts), for two minutes at a
 * rate a small CI machine carries beside the platform: the server in a process of its own
 * on the system clock, its feed ingested through the real path, PostgreSQL only (the soak
 * is about PostgreSQL's connections and tables; PGlite is skipped).
 */
const mix_ms = 100_000;
/**
 * Warm-up: the longest expiry used (1 min) plus the time its first trades take to settle,
 * so open trades have reached their steady number. The 5-minute expiry of the benchmark
 * would not reach it within two minutes; 30 s and 1 min are the product's expiries that do.
 */
const warmup_ms = 60_000;
/**
 * The trade rate: CI runs this file beside the other test files on 2 cores. At 200/s the
 * server fell behind twice in three runs when it got only 0.16–0.20 cores; at 60/s it needs
 * about a third of that. This version catches gross leaks and every error; the 30-minute
 * benchmark is the measure of small ones.
 */
const trades_per_s = 60;
/** Connections may breathe by a couple as the pool opens one for a burst. */
const connections_margin = 2;
/**
 * Heap used after a forced GC, from the end of warm-up to the end. Three runs here, on the
 * 2-core machine shared with a 30-minute soak and other sessions (0.9–1.8 cores of other
 * load), grew by +1.7 %, +1.2 % and +0.3 % (at 200 trades/s). Something kept per socket
 * message (about 200 × 40 a second) or per request of any kind shows far above 10 % in the
 * 40 s after warm-up; a leak per trade only if it keeps 2.5 KB or more a trade.
 */
const heap_growth_percent_max = 10;

describe.each(databaseKindsUnderTest())("soak on %s", (kind) => {
  it.skipIf(kind !== "postgres")(
    "two minutes of trades, sockets, staff decisions and sign-ins leave no error, no leak and a sound ledger",
    async () => {
      const report = await runSoak({
        durationMs: mix_ms,
        warmupMs: warmup_ms,
        tradesPerS: trades_per_s,
        traders: 1_000,
        sockets: 200,
        expirySeconds: [30, 60],
        fundingPerS: 2,
        signInsPerS: 1,
        sampleEveryMs: 10_000,
        ...(process.env.SOAK_TEST_LOG ? { log: (line: string) => console.info(line) } : {}),
      });
      if (process.env.SOAK_TEST_LOG) {
        console.info(
          JSON.stringify({
            rss: report.rss,
            heap: report.heap,
            connections: report.connections,
            cores: report.cores,
            trades: report.tradesPlaced,
            settled: report.settledTrades,
          }),
        );
      }
      expect(report.errorsByKind).toEqual({});
      expect(report.socketFailuresByKind).toEqual({});
      expect(report.silentSocketIntervals).toBe(0);
      // Every part of the mix ran: trades placed and settled, money moved by staff, sign-ins.
      expect(report.tradesPlaced).toBe(report.tradesSent);
      expect(report.tradesPlaced).toBeGreaterThan(0.9 * trades_per_s * (mix_ms / 1000));
      expect(report.settledTrades).toBeGreaterThan(0);
      expect(report.deposits).toBeGreaterThan(0);
      expect(report.withdrawals).toBeGreaterThan(0);
      expect(report.signIns).toBeGreaterThan(0);
      expect(report.socketMessages).toBeGreaterThan(0);
      // Flat after warm-up.
      expect(report.connections.maxAfterWarmup).toBeLessThanOrEqual(
        report.connections.warmup + connections_margin,
      );
      expect(report.heap.growthPercent).toBeLessThan(heap_growth_percent_max);
      // Retention: the rows seeded past their retention were pruned, none is left.
      expect(report.retention.staleTicksSeeded).toBeGreaterThan(0);
      expect(report.retention.staleCandles1sSeeded).toBeGreaterThan(0);
      expect(report.retention.staleTicksAtEnd).toBe(0);
      expect(report.retention.staleCandles1sAtEnd).toBe(0);
      expect(report.ledger.violations).toEqual([]);
      expect(report.ledger.journalProblem).toBeNull();
    },
    240_000,
  );
});
