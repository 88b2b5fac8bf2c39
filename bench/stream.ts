// (c) Stream fan-out: WebSocket clients (this process) each subscribed to 10 symbols; the
// server (a child process) ingests 4 ticks/s per symbol through marketData.offer, each
// stamped with the wall time of the offer call. Delivery latency = receive wall time − `at`
// (same machine clock). Ramp 1k → 2k → 5k → 10k sockets: the largest level meeting the
// target is the last one before the first miss (or socket failure); past a miss the ramp
// goes on for diagnosis only while p99 < 1 s and no socket fails. If 1k already misses,
// 500 and 250 sockets are measured too, to locate the limit. Each level: one window at
// 4 ticks/s/symbol and one control window at 2 ticks/s/symbol (see control_interval_ms).

import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import WebSocket from "ws";
import { type PlatformChild, startPlatformChild } from "./lib/child.ts";
import {
  type BenchResult,
  type CpuGroup,
  coresBetween,
  cpuByGroup,
  fixed,
  formatCores,
  formatShares,
  loadAverage,
  MsHistogram,
  machineCpuDetail,
  machineShares,
  processMemoryMiB,
  type ResultRow,
  sleep,
} from "./lib/stats.ts";

/** BENCH_STREAM_LEVELS="2000,10000" measures just those levels (for quick iterations). */
const levels_override = (process.env.BENCH_STREAM_LEVELS ?? "")
  .split(",")
  .map(Number)
  .filter((level) => Number.isInteger(level) && level > 0);
const levels = levels_override.length > 0 ? levels_override : [1_000, 2_000, 5_000, 10_000];
const levels_below = levels_override.length > 0 ? [] : [500, 250];
const symbols = [
  "EURUSD",
  "GBPUSD",
  "USDJPY",
  "AUDCAD",
  "XAUUSD",
  "BTCUSDT",
  "ETHUSDT",
  "AAPL",
  "US500",
  "DE30",
];
const tick_interval_ms = 250;
/**
 * Control: 2 ticks/s/symbol, slow enough that a tick never meets the stream hub's per-client
 * slot still closed (the hub's counters show how many were held): fan-out cost alone.
 */
const control_interval_ms = 500;
const target_p99_ms = 100;
const settle_ms = 1_500;
const window_ms = 6_000;
/** Past a missed target the ramp goes on (diagnostic) only while p99 stays under this. */
const diagnostic_p99_ms_max = 1_000;
const connect_parallel = 200;
const connect_timeout_ms = 15_000;
const level_connect_ms_max = 60_000;

interface Counters {
  measuring: boolean;
  histogram: MsHistogram;
  ticks: number;
  closed: number;
  errors: number;
}

const at_marker = Buffer.from('"at":"');
const char_t = 0x74; // {"type":"tick" has a 't' at 9 and an 'i' at 10 (trade: 'r')
const char_i = 0x69;
const subscribed_prefix = '{"type":"subscribed"';

/** A stream socket of the load generator: closed on purpose by `terminate` (not a failure). */
interface BenchSocket {
  terminate(): void;
}

/**
 * Which client the load generator uses. `lean` (default): a minimal RFC 6455 client on a raw
 * TCP socket (below). `ws`: the ws library's client, as browsers' equivalents would be; it
 * costs the load generator several times more CPU per message.
 */
const client_kind = process.env.BENCH_STREAM_CLIENT === "ws" ? "ws" : "lean";

/** Records one received message; `receivedMs` is the wall time its TCP chunk was read. */
function onMessage(
  data: Buffer,
  start: number,
  end: number,
  receivedMs: number,
  counters: Counters,
): boolean {
  if (data[start + 9] === char_t && data[start + 10] === char_i) {
    if (!counters.measuring) return false;
    const index = data.indexOf(at_marker, start + 14);
    if (index < 0 || index + 30 > end) return false;
    const at = Date.parse(data.toString("latin1", index + 6, index + 30));
    counters.histogram.add(receivedMs - at);
    counters.ticks += 1;
    return false;
  }
  return data.toString("latin1", start, start + subscribed_prefix.length) === subscribed_prefix;
}

function openWsSocket(url: string, counters: Counters): Promise<BenchSocket | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
    let settled = false;
    let closing = false;
    const finish = (value: BenchSocket | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const handle: BenchSocket = {
      terminate() {
        closing = true;
        socket.terminate();
      },
    };
    const timer = setTimeout(() => {
      socket.terminate();
      finish(null);
    }, connect_timeout_ms);
    socket.on("open", () => socket.send(JSON.stringify({ type: "subscribe", symbols })));
    socket.on("message", (data: Buffer) => {
      if (onMessage(data, 0, data.length, Date.now(), counters)) finish(handle);
    });
    socket.on("error", () => {
      if (!closing) counters.errors += 1;
      finish(null);
    });
    socket.on("close", () => {
      if (settled && !closing) counters.closed += 1;
      finish(null);
    });
  });
}

/** A masked client frame (RFC 6455 §5.3): opcode 1 text, 10 pong. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : 4;
  if (length >= 65_536) throw new Error("bench client frames are small");
  const frame = Buffer.allocUnsafe(header + 4 + length);
  frame[0] = 0x80 | opcode;
  if (header === 2) frame[1] = 0x80 | length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, header);
  for (let index = 0; index < length; index++) {
    frame[header + 4 + index] = payload[index]! ^ mask[index & 3]!;
  }
  return frame;
}

/**
 * The lean client: the HTTP upgrade by hand, then server frames parsed straight from the TCP
 * chunks (server frames are unmasked). Every message of a chunk is stamped with the chunk's
 * read time. Pings are answered (the hub drops sockets that stop ponging); a close frame or
 * any other surprise ends the socket and counts as a failure.
 */
function openLeanSocket(url: string, counters: Counters): Promise<BenchSocket | null> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port) });
    socket.setNoDelay(true);
    let settled = false;
    let closing = false;
    let upgraded = false;
    let pending: Buffer | null = null;
    const finish = (value: BenchSocket | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const handle: BenchSocket = {
      terminate() {
        closing = true;
        socket.destroy();
      },
    };
    const fail = () => {
      if (!closing) counters.errors += 1;
      socket.destroy();
      finish(null);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      finish(null);
    }, connect_timeout_ms);
    socket.on("connect", () => {
      socket.write(
        `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\n` +
          "Sec-WebSocket-Version: 13\r\n\r\n",
      );
    });
    socket.on("data", (chunk: Buffer) => {
      const receivedMs = Date.now();
      const data = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = null;
      let offset = 0;
      if (!upgraded) {
        const end = data.indexOf("\r\n\r\n");
        if (end < 0) {
          pending = data;
          return;
        }
        if (!data.toString("latin1", 0, 12).startsWith("HTTP/1.1 101")) return fail();
        upgraded = true;
        offset = end + 4;
        socket.write(clientFrame(1, Buffer.from(JSON.stringify({ type: "subscribe", symbols }))));
      }
      while (data.length - offset >= 2) {
        const first = data[offset]!;
        let length = data[offset + 1]! & 0x7f;
        let header = 2;
        if (length === 126) {
          if (data.length - offset < 4) break;
          length = data.readUInt16BE(offset + 2);
          header = 4;
        } else if (length === 127) {
          if (data.length - offset < 10) break;
          length = data.readUInt32BE(offset + 2) * 2 ** 32 + data.readUInt32BE(offset + 6);
          header = 10;
        }
        if (data.length - offset < header + length) break;
        const start = offset + header;
        const end = start + length;
        const opcode = first & 0x0f;
        if (opcode === 1) {
          if (onMessage(data, start, end, receivedMs, counters)) finish(handle);
        } else if (opcode === 9) socket.write(clientFrame(10, data.subarray(start, end)));
        else if (opcode !== 10) return fail(); // close, binary or fragments: not expected
        offset = end;
      }
      if (offset < data.length) pending = Buffer.from(data.subarray(offset));
    });
    socket.on("error", fail);
    socket.on("close", () => {
      if (settled && !closing) counters.closed += 1;
      finish(null);
    });
  });
}

function openSocket(url: string, counters: Counters): Promise<BenchSocket | null> {
  return client_kind === "ws" ? openWsSocket(url, counters) : openLeanSocket(url, counters);
}

interface Measurement {
  intervalMs: number;
  latencyMs: { p50: number; p99: number; max: number; mean: number };
  above100Share: number;
  received: number;
  expected: number;
  closed: number;
  errors: number;
  cores: Record<CpuGroup, number>;
  machine: ReturnType<typeof machineShares>;
  serverEventLoopP99Ms: number;
  clientEventLoopP99Ms: number;
  feedRatePerSymbol: number;
  feedTimerLateP99Ms: number;
  /** Server: one round (10 ticks) fanned out to every socket, wall and CPU ms, p50. */
  roundWallP50Ms: number;
  roundCpuP50Ms: number;
  /** The hub's own counters over the window: ticks sent at once or after waiting for a slot. */
  hub: { sent: number; held: number; coalesced: number; dropped: number };
}

type HubStats = {
  ticksSent: number;
  ticksHeld: number;
  ticksCoalesced: number;
  clientsDropped: number;
};

function hubDelta(before: HubStats, after: HubStats) {
  return {
    sent: after.ticksSent - before.ticksSent,
    held: after.ticksHeld - before.ticksHeld,
    coalesced: after.ticksCoalesced - before.ticksCoalesced,
    dropped: after.clientsDropped - before.clientsDropped,
  };
}

export async function runStreamBench(): Promise<BenchResult> {
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  const figures: Array<Record<string, unknown>> = [];
  const loadBefore = loadAverage();
  const sockets: BenchSocket[] = [];
  const counters: Counters = {
    measuring: false,
    histogram: new MsHistogram(30_000),
    ticks: 0,
    closed: 0,
    errors: 0,
  };
  const clientDelay = monitorEventLoopDelay({ resolution: 10 });
  clientDelay.enable();
  let child: PlatformChild | null = null;
  let largestMet = 0;
  let stopReason = "every level met the target";
  let targetMissed = false;
  try {
    child = await startPlatformChild("stream");
    const server = child;
    const url = `${server.baseUrl.replace(/^http/, "ws")}/api/v1/stream`;
    await server.call("serverStats", { gc: true });
    const baseline = processMemoryMiB(server.pid);

    /** Ticks at `intervalMs` per symbol: settle, then one measured window. */
    async function measure(intervalMs: number): Promise<Measurement> {
      await server.call("startTicks", { symbols, intervalMs, durationMs: 60_000 });
      await sleep(settle_ms);
      const closedBefore = counters.closed;
      const errorsBefore = counters.errors;
      counters.histogram.reset();
      counters.ticks = 0;
      // Resets the server's event-loop delay histogram.
      const statsBefore = await server.call("serverStats", {});
      clientDelay.reset();
      const cpuBefore = cpuByGroup(server.pid);
      const machineBefore = machineCpuDetail();
      const wallBefore = performance.now();
      counters.measuring = true;
      await sleep(window_ms);
      counters.measuring = false;
      const wallS = (performance.now() - wallBefore) / 1000;
      const cores = coresBetween(cpuBefore, cpuByGroup(server.pid), wallS);
      const machine = machineShares(machineBefore);
      const stats = await server.call("serverStats", {});
      const feed = await server.call("stopTicks");
      const histogram = counters.histogram;
      const feedRate = feed?.ratePerSymbol ?? Number.NaN;
      return {
        intervalMs,
        latencyMs: {
          p50: histogram.percentile(0.5),
          p99: histogram.percentile(0.99),
          max: histogram.max,
          mean: histogram.sum / Math.max(1, histogram.count),
        },
        above100Share: histogram.above(target_p99_ms) / Math.max(1, histogram.count),
        received: histogram.count,
        // What the feed offered in the window reaching every socket, once per tick.
        expected: sockets.length * symbols.length * feedRate * wallS,
        closed: counters.closed - closedBefore,
        errors: counters.errors - errorsBefore,
        cores,
        machine,
        serverEventLoopP99Ms: stats.eventLoopDelayMs.p99,
        clientEventLoopP99Ms: clientDelay.percentile(99) / 1e6,
        feedRatePerSymbol: feedRate,
        feedTimerLateP99Ms: feed?.timerLateMs.p99 ?? Number.NaN,
        roundWallP50Ms: feed?.roundWallMs.p50 ?? Number.NaN,
        roundCpuP50Ms: feed?.roundCpuMs.p50 ?? Number.NaN,
        hub: hubDelta(statsBefore.stream, stats.stream),
      };
    }

    /** Opens or closes sockets to `level`, measures both windows, adds the rows. */
    async function runLevel(level: number) {
      const connectStarted = performance.now();
      let failedConnects = 0;
      while (sockets.length > level) {
        const socket = sockets.pop()!;
        socket.terminate(); // closed on purpose: not a failure
      }
      while (
        sockets.length + failedConnects < level &&
        performance.now() - connectStarted < level_connect_ms_max
      ) {
        const wave = Math.min(connect_parallel, level - sockets.length - failedConnects);
        const opened = await Promise.all(
          Array.from({ length: wave }, () => openSocket(url, counters)),
        );
        for (const socket of opened) {
          if (socket) sockets.push(socket);
          else failedConnects += 1;
        }
      }
      const connectS = (performance.now() - connectStarted) / 1000;
      await sleep(500);
      const closedBefore = counters.closed;

      const spec = await measure(tick_interval_ms);
      const control = await measure(control_interval_ms);
      const memoryStats = await server.call("serverStats", { gc: true });
      const memory = processMemoryMiB(server.pid);
      const failures =
        failedConnects + (counters.closed - closedBefore) + spec.errors + control.errors;
      const met = spec.latencyMs.p99 < target_p99_ms && failures === 0;
      const perSocketKiB = ((memory.rss - baseline.rss) * 1024) / Math.max(1, sockets.length);
      for (const [label, m] of [
        [`${level} sockets, 4 ticks/s/symbol`, spec],
        [
          `${level} sockets, control ${fixed(1000 / control_interval_ms, 1)} ticks/s/symbol`,
          control,
        ],
      ] as const) {
        rows.push(
          {
            metric: `${label}: latency p50 / p99 / max (ms)`,
            value: `${m.latencyMs.p50} / ${m.latencyMs.p99} / ${fixed(m.latencyMs.max, 0)}`,
            ...(m === spec ? { target: `p99 < ${target_p99_ms} ms`, met } : {}),
          },
          {
            metric: `${label}: ticks/s/symbol offered; received / offered×sockets; share > ${target_p99_ms} ms`,
            value: `${fixed(m.feedRatePerSymbol, 2)}; ${m.received} / ${fixed(m.expected, 0)} (${fixed((m.received / m.expected) * 100)} %); ${fixed(m.above100Share * 100, 2)} %`,
          },
          {
            metric:
              m === spec
                ? `${label}: server time in the round's own fan-out p50: wall / CPU (ms; ticks held for their 4/s slot go out later)`
                : `${label}: server fan-out of one round (${symbols.length} ticks) p50: wall / CPU (ms); CPU per socket-tick`,
            value:
              m === spec
                ? `${fixed(m.roundWallP50Ms)} / ${fixed(m.roundCpuP50Ms)}`
                : `${fixed(m.roundWallP50Ms)} / ${fixed(m.roundCpuP50Ms)}; ${fixed((m.roundCpuP50Ms * 1000) / (symbols.length * sockets.length), 1)} µs`,
          },
          {
            metric: `${label}: CPU cores by process`,
            value: formatCores(m.cores),
          },
          { metric: `${label}: machine CPU`, value: formatShares(m.machine) },
          {
            metric: `${label}: hub: ticks sent / held for their 4/s slot / replaced while held; slow clients dropped`,
            value: `${m.hub.sent} / ${m.hub.held} (${fixed((m.hub.held / Math.max(1, m.hub.sent)) * 100, 2)} %) / ${m.hub.coalesced}; ${m.hub.dropped}`,
          },
          {
            metric: `${label}: event-loop delay p99 server / load generator (ms)`,
            value: `${fixed(m.serverEventLoopP99Ms)} / ${fixed(m.clientEventLoopP99Ms)}`,
          },
        );
      }
      rows.push(
        {
          metric: `${level} sockets: failed connects / closed / errors; connect time`,
          value: `${failedConnects} / ${counters.closed - closedBefore} / ${spec.errors + control.errors}; ${fixed(connectS, 1)} s (server counts ${memoryStats.clients} clients)`,
        },
        {
          metric: `${level} sockets: server RSS after GC, MiB (+KiB per socket over ${fixed(baseline.rss, 0)} MiB idle)`,
          value: `${fixed(memory.rss, 0)} (+${fixed(perSocketKiB, 0)}); heap used ${fixed(memoryStats.memory.heapUsed / 2 ** 20, 0)} MiB; peak RSS ${fixed(memory.peak, 0)} MiB`,
        },
      );
      figures.push({
        level,
        sockets: sockets.length,
        failedConnects,
        connectS,
        met,
        serverRssMiB: memory.rss,
        serverPeakRssMiB: memory.peak,
        serverHeapUsedMiB: memoryStats.memory.heapUsed / 2 ** 20,
        spec,
        control,
      });
      return { met, failures, p99: spec.latencyMs.p99 };
    }

    for (const level of levels) {
      const { met, failures, p99 } = await runLevel(level);
      if (!met && !targetMissed) {
        targetMissed = true;
        stopReason = `target first missed at ${level} sockets (p99 ${p99} ms, ${failures} failures)`;
      }
      if (met && !targetMissed) largestMet = level;
      if (failures > 0 || p99 >= diagnostic_p99_ms_max) {
        stopReason += `; ramp stopped at ${level} (${failures > 0 ? `${failures} socket failures` : `p99 ${p99} ms ≥ ${diagnostic_p99_ms_max} ms`})`;
        break;
      }
    }
    if (largestMet === 0) {
      for (const level of levels_below) {
        const { met } = await runLevel(level);
        if (met) {
          largestMet = level;
          stopReason += `; below the ramp, ${level} sockets met the target`;
          break;
        }
      }
    }
    for (const socket of sockets) socket.terminate();
    const warnings = server.warnings();
    notes.push(
      `Largest level meeting p99 < ${target_p99_ms} ms with no socket failures: ${largestMet || "none measured"} (${stopReason}).`,
      `Load generator client: ${client_kind} (BENCH_STREAM_CLIENT=ws for the ws library's client).`,
      "Latency = receive wall time − tick `at`; `at` = wall time of the marketData.offer call in the server process (same machine clock, ms resolution). The load generator (this process) shares the 2 cores with the server and PostgreSQL; its CPU and the kernel's (system, softirq: loopback TCP) are in the table.",
      `Server warn+ log lines: ${warnings.count}${warnings.count ? ` e.g. ${warnings.sample[0]}` : ""}.`,
      `Load average before: ${loadBefore}; after: ${loadAverage()}.`,
    );
    return {
      name: "stream",
      rows,
      notes,
      figures: { levels: figures, largestMet, stopReason },
    };
  } finally {
    clientDelay.disable();
    for (const socket of sockets) socket.terminate();
    await child?.close();
  }
}
