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
export const serverNodeFlags = ["--max-semi-space-size=32"];

/** The flags of `serverNodeFlags` missing from a process's `execArgv`. */
export function missingServerNodeFlags(execArgv) {
  return serverNodeFlags.filter((flag) => !execArgv.includes(flag));
}
