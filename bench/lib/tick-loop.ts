// The stream benchmark's feed, shared by the platform child and the minimal ws server so both
// are fed the same ticks at the same rate, on the same timer logic.
import { performance } from "node:perf_hooks";
import { summarise } from "./stats.ts";

export interface TickLoopStats {
  intervalMs: number;
  rounds: number;
  offered: number;
  /** Ticks per second per symbol actually offered. */
  ratePerSymbol: number;
  /** How late each round's timer fired after its planned time. */
  timerLateMs: ReturnType<typeof summarise>;
  /**
   * From the first offer of a round until the event loop is free again (the bus delivers in
   * microtasks, and the stream hub writes each turn's frames in a setImmediate, so the sends
   * to every subscriber are done by then): wall and CPU time of this process.
   */
  roundWallMs: ReturnType<typeof summarise>;
  roundCpuMs: ReturnType<typeof summarise>;
}

/** Samples kept per series: a 60 s loop at 4 rounds/s needs 240. */
const samples_max = 100_000;

function nextTurn() {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Rounds of one tick per symbol, each stamped with the wall time of the offer call. A round
 * is planned `intervalMs` after the previous one's start (never sooner, so ticks of a symbol
 * are always >= intervalMs apart and the platform's 250 ms throttle never holds one back);
 * a late timer makes the rate slightly lower, which the stats report.
 */
export async function runTickLoop(options: {
  symbols: string[];
  intervalMs: number;
  durationMs: number;
  offer: (symbol: string, price: number, atMs: number) => void;
  stopped: () => boolean;
}): Promise<TickLoopStats> {
  const { symbols, intervalMs, durationMs, offer, stopped } = options;
  const started = Date.now();
  const late: number[] = [];
  const roundWall: number[] = [];
  const roundCpu: number[] = [];
  let rounds = 0;
  let offered = 0;
  let lastWall = started - intervalMs;
  const rounds_max = Math.ceil(durationMs / intervalMs) + 1;
  const price = new Map(symbols.map((symbol, index) => [symbol, 100 + index]));
  while (!stopped() && rounds < rounds_max && Date.now() - started < durationMs) {
    const planned = lastWall + intervalMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, planned - Date.now())));
    if (stopped()) break;
    const wall = Date.now();
    if (wall < planned) continue; // a timer never fires early, but be exact about spacing
    rounds += 1;
    lastWall = wall;
    if (late.length < samples_max) late.push(wall - planned);
    const roundStarted = performance.now();
    const cpuStarted = process.cpuUsage();
    for (const symbol of symbols) {
      const next = Math.round((price.get(symbol)! + (Math.random() - 0.5) * 0.01) * 1000) / 1000;
      price.set(symbol, next);
      offer(symbol, next, wall);
      offered += 1;
    }
    await nextTurn();
    await nextTurn(); // the stream hub writes each turn's frames in a setImmediate
    if (roundWall.length < samples_max) {
      roundWall.push(performance.now() - roundStarted);
      const cpu = process.cpuUsage(cpuStarted);
      roundCpu.push((cpu.user + cpu.system) / 1000);
    }
  }
  const elapsedS = (Date.now() - started) / 1000;
  return {
    intervalMs,
    rounds,
    offered,
    ratePerSymbol: rounds / elapsedS,
    timerLateMs: summarise(late),
    roundWallMs: summarise(roundWall),
    roundCpuMs: summarise(roundCpu),
  };
}

/**
 * The children's `startTicks` / `stopTicks`: one loop at a time, feeding `offer`. `halt`
 * (on close) asks a running loop to end without waiting for it.
 */
export function tickLoopControl(offer: (symbol: string, price: number, atMs: number) => void) {
  let loop: Promise<TickLoopStats> | null = null;
  let stop = false;
  return {
    start(params: { symbols: string[]; intervalMs: number; durationMs: number }) {
      if (loop) throw new Error("ticks already running");
      stop = false;
      loop = runTickLoop({ ...params, offer, stopped: () => stop });
    },
    async stop(): Promise<TickLoopStats | null> {
      stop = true;
      const stats = await loop;
      loop = null;
      return stats ?? null;
    },
    halt() {
      stop = true;
    },
  };
}
