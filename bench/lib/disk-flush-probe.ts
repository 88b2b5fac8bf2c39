// The disk beside a latency pass: the page cache written back before it (writeBackDirtyPages),
// and a probe of its flush latency, what a commit waits for: PostgreSQL answers a durable
// commit only once its WAL has reached the disk (an fdatasync), so one slow flush holds
// every commit behind it, and on this machine an 8 kB fdatasync that takes ~1 ms when quiet
// has taken over 100 ms under the benches' load (bench/RESULTS.md, issue 16's
// twenty-third session). The probe writes 8 kB and flushes it every `intervalMs`, through
// libuv's thread pool so the caller's event loop never waits on it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

/** Flushes slower than this are listed with their time in the pass. */
export const slow_flush_ms = 50;

export interface DiskFlushReport {
  flushes: number;
  maxMs: number;
  over20: number;
  /** Seconds into the probe at which each flush over slow_flush_ms began. */
  slowAtS: number[];
  /** Whether the probe's file shares a device with `sameDeviceAs` (null: not known). */
  sameDevice: boolean | null;
}

export function startDiskFlushProbe(options: { sameDeviceAs?: string; intervalMs?: number }) {
  const intervalMs = options.intervalMs ?? 50;
  const folder = mkdtempSync(path.join(tmpdir(), "bench-flush-probe-"));
  const file = path.join(folder, "probe.dat");
  let sameDevice: boolean | null = null;
  if (options.sameDeviceAs) {
    try {
      sameDevice = statSync(folder).dev === statSync(options.sameDeviceAs).dev;
    } catch {
      sameDevice = null;
    }
  }
  const block = Buffer.alloc(8192, 1);
  const durationsMs: number[] = [];
  const slowAtS: number[] = [];
  const started = performance.now();
  let running = true;
  const done = (async () => {
    const handle = await open(file, "w");
    try {
      // Rotating over 1 MB: each flush writes a block of its own, as the WAL does.
      for (let n = 0; running; n++) {
        await handle.write(block, 0, block.length, (n % 128) * block.length);
        const flushStarted = performance.now();
        await handle.datasync();
        const flushMs = performance.now() - flushStarted;
        durationsMs.push(flushMs);
        if (flushMs > slow_flush_ms) slowAtS.push((flushStarted - started) / 1000);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    } finally {
      await handle.close();
      rmSync(folder, { recursive: true, force: true });
    }
  })();
  return {
    async stop(): Promise<DiskFlushReport> {
      running = false;
      await done;
      return {
        flushes: durationsMs.length,
        maxMs: durationsMs.reduce((max, ms) => Math.max(max, ms), 0),
        over20: durationsMs.filter((ms) => ms > 20).length,
        slowAtS,
        sameDevice,
      };
    },
  };
}

/** The kernel's dirty page cache, in MiB (/proc/meminfo's Dirty; null where there is none). */
function dirtyMiB(): number | null {
  try {
    const kib = /^Dirty:\s+(\d+) kB$/m.exec(readFileSync("/proc/meminfo", "utf8"))?.[1];
    return kib === undefined ? null : Number(kib) / 1024;
  } catch {
    return null;
  }
}

export interface WriteBackReport {
  /** Dirty page cache before, MiB (null where /proc/meminfo is not there). */
  dirtyMiB: number | null;
  tookMs: number;
}

/**
 * Writes the machine's dirty page cache to disk now (`sync`), before a latency pass. The
 * kernel writes a file's dirty pages back once the file has been dirty for 30 s
 * (vm.dirty_expire_centisecs), all of them at once: the ~100 MB of table pages the max pass
 * leaves in the page cache were written back 8–12 s into the half pass, and the WAL's
 * fdatasync waited behind them (150–270 ms; bench/RESULTS.md, issue 16's twenty-fourth
 * session). Written back here, they stay the max pass's cost; a pass's own pages expire
 * after it has ended.
 */
export function writeBackDirtyPages(): WriteBackReport {
  const before = dirtyMiB();
  const started = performance.now();
  spawnSync("sync", { stdio: "ignore" });
  return { dirtyMiB: before, tookMs: performance.now() - started };
}
