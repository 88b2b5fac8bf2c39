/**
 * The server test files that run alone (vitest.serial.config.ts) instead of beside another
 * file (vitest.config.ts runs the rest two at a time): they start and kill whole server
 * processes, or measure elapsed time against a bound a busy CPU could break (a socket closed
 * within 1 s, ticks 1 s apart within 60 ms, an aborted fetch within 500 ms, a drain, an
 * outage, a failover).
 */
export const timingBoundFiles = [
  "test/bus-outage.test.ts",
  "test/load-balancer.test.ts",
  "test/scale-out.test.ts",
  "test/readiness.test.ts",
  "test/process.test.ts",
  "test/start-script.test.ts",
  "test/stream.test.ts",
  "test/stream-fanout.test.ts",
  "test/sessions.test.ts",
  "test/market-info.test.ts",
  "test/feeds/binance-feed.test.ts",
];
