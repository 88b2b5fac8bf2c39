// The Node flags the server process runs with. Node reads them at launch, so they are on the
// command line of `npm start` (package.json) and of the systemd unit
// (deploy/tradeplatform.service); server/test/start-script.test.ts checks both carry every
// one, and the benches start their server child with them (bench/lib/child.ts).
//
// --max-semi-space-size=32 (MiB, Node 20's default is 16): a settlement batch's thousands of trades
// live across its database round trips, so with the default young generation most of them
// were copied and then promoted, and garbage collection took about a quarter of the server's
// CPU in a burst. With 32 the server's CPU per settled trade fell from 23–25 to 19–21 µs;
// place-trade's scavenges became fewer (373 → 162 in its passes, 1.98 → 1.41 s in all) with
// the longest no longer (27 → 28 ms). 64 saved as much in settlement but made every
// scavenge under place-trade load 30–54 ms, which is latency (bench/RESULTS.md, issue 16's
// fifteenth session). About 50–70 MiB more resident memory under load.
//
// --no-allocation-site-pretenuring: V8 watches which allocation sites' objects survive
// scavenges and then allocates those sites' objects straight in the old generation. Under
// place-trade load the sites it picked (Node's reply header strings, the trade batch, the
// pg bind buffers) are short-lived after all, so the old generation grew ~14 MB/s, every
// scavenge took 14–17 ms and promoted ~3.5 MB, and mark-compacts came every few seconds:
// the half-max pass's p99 was 50–220 ms. Without pretenuring, at 2,300 trades/s over 15 s
// passes: GC 323–381 ms in all (was 823–1,208), longest pause 9–22 ms (27–53), p99
// 31–49 ms (50–221), server CPU 0.40–0.44 cores (0.45–0.66). In the full place-trade bench
// the half pass's p99 did not move (its tail is elsewhere); settlement's real-time second
// took 0.32–0.36 server cores instead of 0.49–0.52 (bench/RESULTS.md, issue 16's nineteenth
// session).
export const serverNodeFlags = ["--max-semi-space-size=32", "--no-allocation-site-pretenuring"];

/** The flags of `serverNodeFlags` missing from a process's `execArgv`. */
export function missingServerNodeFlags(execArgv) {
  return serverNodeFlags.filter((flag) => !execArgv.includes(flag));
}
