import {
  default_restricted_country_codes,
  parseRestrictedCountryCodes,
  realMoneyRestrictedMessage,
  signUpRestrictedMessage,
} from "@tp/domain/restricted-countries";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import {
  balancesOf,
  configurePaymentMethods,
  pngBytes,
  postForm,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient, newTrader } from "./support/http.ts";
import { advanceWithTick, pushTick } from "./support/prices.ts";

/**
 * Restricted countries (issue 14 item 4): sign-up from a country on RESTRICTED_COUNTRIES is
 * refused on `country`; a trader whose declared country is on it gets 403
 * COUNTRY_RESTRICTED for real-money deposits and trades, keeps practice trading and
 * withdrawals; everyone else is unaffected.
 */
const journey_timeout_ms = 300_000;
const trade = { asset: "EURUSD", amount: 10, duration: 30, type: "call", is_practice: true };
const withdrawal = {
  payment_method_id: "bitcoin",
  amount: 25,
  withdrawal_details: { wallet_address: "bc1qrestrictedcountry000000000000" },
};

describe.each(databaseKindsUnderTest())("restricted countries on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind, {
      RESTRICTED_COUNTRIES: "fr, DE",
      // Real-account trades on the simulator's prices, so a trader elsewhere can place one.
      ALLOW_REAL_TRADING_ON_SIMULATED_PRICES: "true",
    });
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
    await pushTick(platform, "EURUSD", 1.08);
  }, journey_timeout_ms);
  afterAll(async () => platform?.close());

  async function usersWithEmail(email: string) {
    const result = await platform.database.query("SELECT id FROM users WHERE email = lower($1)", [
      email,
    ]);
    return result.rows.length;
  }

  it("publishes the list in force", async () => {
    const reply = await http.get("/api/v1/restricted-countries");
    expect(reply.status).toBe(200);
    expect(reply.body.data.countries).toEqual([
      { code: "FR", name: "France" },
      { code: "DE", name: "Germany" },
    ]);
  });

  it("refuses sign-up from a restricted country on `country`, and makes no account", async () => {
    const french = newTrader({ country: "France" });
    const refused = await http.post("/api/v1/register", french);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("VALIDATION_FAILED");
    expect(refused.body.errors).toEqual({ country: [signUpRestrictedMessage("France")] });
    expect(refused.body.errors.country[0]).toBe(
      "We cannot open accounts for residents of France: binary options may not be offered to retail traders there.",
    );
    expect(await usersWithEmail(french.email)).toBe(0);

    const british = newTrader({ country: "United Kingdom" });
    expect((await http.post("/api/v1/register", british)).status).toBe(201);
    expect(await usersWithEmail(british.email)).toBe(1);
  });

  it(
    "blocks a resident's real-money deposit and trade, keeps practice and withdrawals",
    async () => {
      const trader = await withdrawableTrader(platform, admin, 100);
      // Signed up before France was on the list (the operator added it later).
      await platform.database.query("UPDATE users SET country = 'France' WHERE id = $1", [
        trader.user.id,
      ]);

      const deposit = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bitcoin", amount: 50 },
        trader.token,
      );
      expect(deposit.status).toBe(403);
      expect(deposit.body).toMatchObject({
        code: "COUNTRY_RESTRICTED",
        message: realMoneyRestrictedMessage("France"),
      });
      const deposits = await platform.database.query(
        "SELECT id FROM deposits WHERE user_id = $1 AND status = 'awaiting_payment'",
        [trader.user.id],
      );
      expect(deposits.rows).toEqual([]);

      await advanceWithTick(platform, "EURUSD", 1.0801, 300);
      const real = await http.post(
        "/api/v1/place-trade",
        { ...trade, is_practice: false },
        trader.token,
      );
      expect(real.status).toBe(403);
      expect(real.body).toMatchObject({
        code: "COUNTRY_RESTRICTED",
        message: realMoneyRestrictedMessage("France"),
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(100);

      const practice = await http.post("/api/v1/place-trade", trade, trader.token);
      expect(practice.status).toBe(201);
      expect(practice.body.data.trade.is_practice).toBe(true);

      const withdrawn = await http.post("/api/v1/withdrawals", withdrawal, trader.token);
      expect(withdrawn.status).toBe(201);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(75);
      expect(await platform.ledgerViolations()).toEqual([]);
    },
    journey_timeout_ms,
  );

  it(
    "refuses the receipt of a deposit opened before the country became restricted; it can be cancelled",
    async () => {
      const trader = await withdrawableTrader(platform, admin, 100);
      const opened = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bitcoin", amount: 50 },
        trader.token,
      );
      expect(opened.status, opened.text).toBe(201);
      const { deposit_id, transaction_hash } = opened.body.data;
      // The operator adds the trader's country to the list (their declared country is it).
      await platform.database.query("UPDATE users SET country = 'Germany' WHERE id = $1", [
        trader.user.id,
      ]);
      const receipt = await postForm(
        platform.baseUrl,
        `/api/v1/deposits/${deposit_id}/receipt`,
        { transaction_hash },
        { field: "receipt", bytes: pngBytes(), name: "receipt.png", type: "image/png" },
        trader.token,
      );
      expect(receipt.status, receipt.text).toBe(403);
      expect(receipt.body).toMatchObject({
        code: "COUNTRY_RESTRICTED",
        message: realMoneyRestrictedMessage("Germany"),
      });
      const stored = await platform.database.query<{ status: string; receipt_upload_id: unknown }>(
        "SELECT status, receipt_upload_id FROM deposits WHERE id = $1",
        [deposit_id],
      );
      expect(stored.rows).toEqual([{ status: "awaiting_payment", receipt_upload_id: null }]);
      const uploads = await platform.database.query(
        "SELECT id FROM uploads WHERE user_id = $1 AND purpose = 'receipt'",
        [trader.user.id],
      );
      const receiptsBefore = uploads.rows.length;

      const cancelled = await http.request("DELETE", `/api/v1/deposits/${deposit_id}`, {
        token: trader.token,
      });
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body.data.deposit.status).toBe("cancelled");
      // Nothing was kept of the refused receipt, and the balance never moved.
      const uploadsAfter = await platform.database.query(
        "SELECT id FROM uploads WHERE user_id = $1 AND purpose = 'receipt'",
        [trader.user.id],
      );
      expect(uploadsAfter.rows.length).toBe(receiptsBefore);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(100);
      expect(await platform.ledgerViolations()).toEqual([]);
    },
    journey_timeout_ms,
  );

  it(
    "leaves a trader elsewhere unaffected",
    async () => {
      const trader = await withdrawableTrader(platform, admin, 100);
      await advanceWithTick(platform, "EURUSD", 1.0802, 300);
      const real = await http.post(
        "/api/v1/place-trade",
        { ...trade, is_practice: false },
        trader.token,
      );
      expect(real.status).toBe(201);
      expect(real.body.data.trade.is_practice).toBe(false);
      const deposit = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bitcoin", amount: 50 },
        trader.token,
      );
      expect(deposit.status).toBe(201);
    },
    journey_timeout_ms,
  );
});

describe("RESTRICTED_COUNTRIES at start", () => {
  const base = { DATA_DIR: "/tmp/unused" };

  it("defaults to the EU/EEA, the UK, Australia, Israel, Canada and the United States", () => {
    const names = loadConfig(base).RESTRICTED_COUNTRIES;
    expect(names).toHaveLength(default_restricted_country_codes.length);
    for (const country of [
      "France",
      "Germany",
      "Norway",
      "Iceland",
      "Liechtenstein",
      "United Kingdom",
      "Australia",
      "Israel",
      "Canada",
      "United States",
    ]) {
      expect(names).toContain(country);
    }
    expect(names).not.toContain("Brazil");
  });

  it("takes an empty value as none, and codes in any case with spaces", () => {
    expect(loadConfig({ ...base, RESTRICTED_COUNTRIES: "" }).RESTRICTED_COUNTRIES).toEqual([]);
    expect(
      loadConfig({ ...base, RESTRICTED_COUNTRIES: " au ,GB,gb" }).RESTRICTED_COUNTRIES,
    ).toEqual(["Australia", "United Kingdom"]);
  });

  it("refuses unknown codes with a message naming them", () => {
    expect(() => loadConfig({ ...base, RESTRICTED_COUNTRIES: "FR,XX,France" })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ...base, RESTRICTED_COUNTRIES: "FR,XX,France" })).toThrow(
      /RESTRICTED_COUNTRIES: unknown country codes XX, FRANCE: use the ISO 3166-1 alpha-2 codes/,
    );
    expect(parseRestrictedCountryCodes("UK")).toEqual({ ok: false, unknown: ["UK"] });
  });
});
