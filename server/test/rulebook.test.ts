import { expirations } from "@tp/domain/catalogue";
import {
  currentPayoutTable,
  rulebook_version_current,
  rulebook_versions,
  settlement_rule_parameters,
} from "@tp/domain/rulebook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { settlement_feed_wait_ms, settlement_grace_ms } from "../src/trading/settlement.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick } from "./support/prices.ts";

describe("the rulebook's versions (issue 15 item 4)", () => {
  it("matches the code: the latest version holds the payout table and parameters in force", () => {
    // Changing a payout or a settlement parameter without adding a version fails here, so a
    // trade's recorded version always names the rules it was placed under.
    const latest = rulebook_versions.at(-1)!;
    expect(latest.version).toBe(rulebook_version_current);
    expect(latest.payout_percent_by_seconds).toEqual(currentPayoutTable());
    expect(latest.parameters).toEqual(settlement_rule_parameters);
    expect({ settlement_grace_ms, settlement_feed_wait_ms }).toEqual(settlement_rule_parameters);
  });

  it("numbers versions 1, 2, 3… in order, each with a date and a summary", () => {
    rulebook_versions.forEach((version, index) => {
      expect(version.version).toBe(index + 1);
      expect(version.effective_from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(version.summary.length).toBeGreaterThan(20);
    });
    const dates = rulebook_versions.map((version) => version.effective_from);
    expect([...dates].sort()).toEqual(dates);
  });
});

describe.each(databaseKindsUnderTest())("GET /rules and each trade's version on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind, {
      env: { ENTRY_PRICE_MAX_AGE_MS: "all=2000,stocks=3000" },
    });
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  it("publishes the rules, the payout table and the operator's entry-price limits, without sign-in", async () => {
    const reply = await http.get("/api/v1/rules");
    expect(reply.status, reply.text).toBe(200);
    const rulebook = reply.body.data;
    expect(rulebook.version).toBe(rulebook_version_current);
    expect(rulebook.payout_table).toEqual(
      expirations.map((e) => ({
        seconds: e.seconds,
        label: e.label,
        payout_percent: e.payoutPercent,
      })),
    );
    expect(rulebook.entry_price_max_age_ms).toMatchObject({ stocks: 3000, forex: 2000 });
    expect(rulebook.rules.map((rule: { id: string }) => rule.id)).toEqual([
      "entry",
      "exit",
      "outcome",
      "payout",
      "refund-no-price",
      "refund-feed-down",
    ]);
    expect(rulebook.versions).toHaveLength(rulebook_versions.length);
  });

  it("records on each trade the version it was placed under", async () => {
    const trader = await signedInTrader(platform);
    await advanceWithTick(platform, "EURUSD", 1.1, 500);
    const placed = await http.post(
      "/api/v1/place-trade",
      { asset: "EURUSD", type: "put", amount: 10, duration: 30, is_practice: true },
      trader.token,
    );
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body.data.trade.rule_version).toBe(rulebook_version_current);
    const stored = await platform.database.query<{ rule_version: number }>(
      "SELECT rule_version FROM trades WHERE id = $1",
      [placed.body.data.trade.id],
    );
    expect(stored.rows[0]!.rule_version).toBe(rulebook_version_current);
  });
});
