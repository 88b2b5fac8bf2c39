// `npm run bench`: latency of the signed-in hot path (GET /api/v1/user) and of sign-in
// (argon2id dominates) over real HTTP against the embedded database. Not part of npm test.
import { performance } from "node:perf_hooks";
import { startTestPlatform } from "../server/src/testing/test-platform.ts";

const requests_total = 2_000;
const concurrency = 20;
const logins_total = 40;

function percentile(sortedMs: number[], fraction: number): number {
  return (
    sortedMs[Math.min(sortedMs.length - 1, Math.floor(sortedMs.length * fraction))] ?? Number.NaN
  );
}

async function measure(
  label: string,
  total: number,
  parallel: number,
  call: () => Promise<Response>,
) {
  const latenciesMs: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < total) {
        next += 1;
        const begin = performance.now();
        const response = await call();
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${label}: HTTP ${response.status}`);
        latenciesMs.push(performance.now() - begin);
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  latenciesMs.sort((a, b) => a - b);
  console.info(
    `${label}: ${total} requests, ${parallel} concurrent: ${(total / elapsedS).toFixed(0)} req/s, ` +
      `p50 ${percentile(latenciesMs, 0.5).toFixed(1)} ms, p99 ${percentile(latenciesMs, 0.99).toFixed(1)} ms`,
  );
}

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

  await measure("GET /api/v1/user", requests_total, concurrency, () =>
    fetch(`${base}/api/v1/user`, { headers: { authorization: `Bearer ${token}` } }),
  );
  await measure("POST /api/v1/login", logins_total, 2, () =>
    fetch(`${base}/api/v1/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: trader.email, password: trader.password }),
    }),
  );
  console.info(
    `RSS ${(memoryBefore / 2 ** 20).toFixed(0)} MiB before, ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB after`,
  );
} finally {
  await platform.close();
}
