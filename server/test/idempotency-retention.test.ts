import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  idempotency_key_retention_ms,
  pruneIdempotencyKeys,
} from "../src/idempotency/idempotency.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick, pushTick } from "./support/prices.ts";

const practiceTrade = {
  asset: "EURUSD",
  type: "call",
  amount: 10,
  duration: 60,
  is_practice: true,
};
const hour_ms = 60 * 60 * 1000;

describe.each(databaseKindsUnderTest())("Idempotency-Key retention on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
    await pushTick(platform, "EURUSD", 1.08);
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  async function keysOf(userId: number) {
    const result = await platform.database.query<{ key: string }>(
      "SELECT key FROM idempotency_keys WHERE user_id = $1 ORDER BY key",
      [userId],
    );
    return result.rows.map((row) => row.key);
  }

  it("a key replays for a day after its first use; then the worker forgets it and it places anew", async () => {
    expect(idempotency_key_retention_ms).toBe(24 * hour_ms);
    const trader = await signedInTrader(platform);
    const send = (key: string) =>
      http.request("POST", "/api/v1/place-trade", {
        json: practiceTrade,
        token: trader.token,
        headers: { "idempotency-key": key },
      });

    const first = await send("day-1");
    expect(first.status).toBe(201);

    // 23 hours on: still remembered (and the session, used again, stays alive).
    await advanceWithTick(platform, "EURUSD", 1.081, 23 * hour_ms);
    const replay = await send("day-1");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const younger = await send("day-2");
    expect(younger.status).toBe(201);
    expect(await pruneIdempotencyKeys(platform.database, platform.clock.now(), 100)).toBe(0);

    // 25 hours after day-1's first use, 2 after day-2's: a new process's first pass of the
    // retention worker (it polls at once when it starts) forgets day-1 only.
    await advanceWithTick(platform, "EURUSD", 1.082, 2 * hour_ms);
    await platform.restart();
    http = httpClient(platform.baseUrl);
    await pushTick(platform, "EURUSD", 1.082);
    await expect.poll(() => keysOf(Number(trader.user.id)), { timeout: 10_000 }).toEqual(["day-2"]);

    const anew = await send("day-1");
    expect(anew.status).toBe(201);
    expect(anew.headers.get("idempotency-replayed")).toBeNull();
    expect(anew.body.data.trade.id).not.toBe(first.body.data.trade.id);
    const stillRemembered = await send("day-2");
    expect(stillRemembered.headers.get("idempotency-replayed")).toBe("true");
    expect(stillRemembered.body).toEqual(younger.body);
    // Three trades in all: day-1 twice (a day apart), day-2 once.
    const trades = await platform.database.query<{ n: string }>(
      "SELECT COUNT(*) AS n FROM trades WHERE user_id = $1",
      [Number(trader.user.id)],
    );
    expect(Number(trades.rows[0]!.n)).toBe(3);
  });

  it("prunes oldest first, at most the limit per call, and only keys past the retention", async () => {
    const trader = await signedInTrader(platform);
    const now = platform.clock.now();
    // Whatever earlier tests left past the retention goes first: the counts below are this
    // test's keys alone.
    while ((await pruneIdempotencyKeys(platform.database, now, 1_000)) > 0) {}
    const at = (ageMs: number) => new Date(now.getTime() - ageMs);
    for (const [key, createdAt] of [
      ["old-a", at(idempotency_key_retention_ms + 3_000)],
      ["old-b", at(idempotency_key_retention_ms + 2_000)],
      ["old-c", at(idempotency_key_retention_ms + 1_000)],
      ["edge", at(idempotency_key_retention_ms)],
      ["fresh", at(1_000)],
    ] as const) {
      await platform.database.query(
        `INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at)
         VALUES ($1, $2, 'hash', 201, '{}'::jsonb, $3)`,
        [Number(trader.user.id), key, createdAt],
      );
    }
    expect(await pruneIdempotencyKeys(platform.database, now, 2)).toBe(2);
    expect(await keysOf(Number(trader.user.id))).toEqual(["edge", "fresh", "old-c"]);
    expect(await pruneIdempotencyKeys(platform.database, now, 2)).toBe(1);
    expect(await keysOf(Number(trader.user.id))).toEqual(["edge", "fresh"]);
  });
});
