// The Node flags the server process runs with. Node reads them at launch, so they are on the
// command line of `npm start` (package.json) and of the systemd unit
// (deploy/tradeplatform.service); server/test/start-script.test.ts checks both carry every
// one, and the benches start their server child with them (bench/lib/child.ts).
//
// --max-semi-space-size=64 (MiB, Node 20's default is 16): a settlement batch's 2,000 trades
// and a place-trade batch's requests live across their database round trips, so with the
// default young generation most of them were copied once and then promoted, and garbage
// collection took about a quarter of the server's CPU in a burst. With 64 the server's CPU
// per settled trade fell from 23–24 to 18–20 µs and per placed trade from 183 to 137 µs, for
// about 90 MiB more resident memory under load (bench/RESULTS.md, issue 16's fifteenth
// session).
export const serverNodeFlags = ["--max-semi-space-size=64"];

/** The flags of `serverNodeFlags` missing from a process's `execArgv`. */
export function missingServerNodeFlags(execArgv) {
  return serverNodeFlags.filter((flag) => !execArgv.includes(flag));
}
