// The signed-in hot path (GET /api/v1/user) and sign-in (argon2id dominates) over real HTTP
// against the embedded database (PGlite, in this process).
import { performance } from "node:perf_hooks";
import { startTestPlatform } from "../server/src/testing/test-platform.ts";
import { type BenchResult, fixed, summarise } from "./lib/stats.ts";

const requests_total = 2_000;
const concurrency = 20;
const logins_total = 40;

async function measure(total: number, parallel: number, call: () => Promise<Response>) {
  const latenciesMs: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < total) {
        next += 1;
        const begin = performance.now();
        const response = await call();
        await response.arrayBuffer();
        if (response.ok) latenciesMs.push(performance.now() - begin);
        else failed += 1;
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  return { rate: total / elapsedS, latency: summarise(latenciesMs), failed };
}

export async function runHotPathBench(): Promise<BenchResult> {
  const platform = await startTestPlatform("pglite");
  try {
    const base = platform.baseUrl;
    const trader = {
      first_name: "Bench",
      last_name: "Mark",
      email: "bench@example.test",
      password: "Bench1234",
      password_confirmation: "Bench1234",
      country: "France",
      phone_number: "+33 1 23 45 67 89",
      accept_terms: true,
    };
    const json = { "content-type": "application/json" };
    await fetch(`${base}/api/v1/register`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(trader),
    });
    const login = await fetch(`${base}/api/v1/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: trader.email, password: trader.password }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const memoryBefore = process.memoryUsage().rss;
    const user = await measure(requests_total, concurrency, () =>
      fetch(`${base}/api/v1/user`, { headers: { authorization: `Bearer ${token}` } }),
    );
    const logins = await measure(logins_total, 2, () =>
      fetch(`${base}/api/v1/login`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: trader.email, password: trader.password }),
      }),
    );
    const memoryAfter = process.memoryUsage().rss;
    const row = (label: string, result: Awaited<ReturnType<typeof measure>>) => ({
      metric: label,
      value: `${fixed(result.rate, 0)} req/s, p50 ${fixed(result.latency.p50)} ms, p99 ${fixed(result.latency.p99)} ms, ${result.failed} failed`,
    });
    return {
      name: "hot-path (PGlite, in process)",
      rows: [
        row(`GET /api/v1/user (${requests_total} requests, ${concurrency} concurrent)`, user),
        row(`POST /api/v1/login (${logins_total} requests, 2 concurrent)`, logins),
        {
          metric: "bench process RSS before / after (MiB)",
          value: `${fixed(memoryBefore / 2 ** 20, 0)} / ${fixed(memoryAfter / 2 ** 20, 0)}`,
        },
      ],
      notes: ["Server and client share this process (RSS mixes both)."],
      figures: {
        user,
        logins,
        rssMiB: { before: memoryBefore / 2 ** 20, after: memoryAfter / 2 ** 20 },
      },
    };
  } finally {
    await platform.close();
  }
}
