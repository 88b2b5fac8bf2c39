import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";

describe("configuration", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe("http://localhost:3000");
    expect(config.DATA_DIR).toBe(path.resolve("./data"));
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.LOG_LEVEL).toBe("info");
    expect(config.RATE_LIMIT_FACTOR).toBe(1);
    expect(config.practice_balance_cents).toBe(10_000_00);
    expect(config.PRICE_HISTORY_HOURS).toBe(48);
  });

  it("reads how far back price history is filled, 0 turning it off", () => {
    expect(loadConfig({ PRICE_HISTORY_HOURS: "0" }).PRICE_HISTORY_HOURS).toBe(0);
    expect(loadConfig({ PRICE_HISTORY_HOURS: "72" }).PRICE_HISTORY_HOURS).toBe(72);
    expect(() => loadConfig({ PRICE_HISTORY_HOURS: "1.5" })).toThrow(
      "PRICE_HISTORY_HOURS: must be a whole number of hours",
    );
    expect(() => loadConfig({ PRICE_HISTORY_HOURS: "721" })).toThrow(
      "PRICE_HISTORY_HOURS: must be at most 720 (30 days)",
    );
  });

  it("bounds the shutdown: a readiness delay (2 s) inside the whole (10 s), shorter than it", () => {
    const config = loadConfig({});
    expect(config.SHUTDOWN_READINESS_DELAY_MS).toBe(2_000);
    expect(config.SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_READINESS_DELAY_MS: "0" }).SHUTDOWN_READINESS_DELAY_MS).toBe(0);
    expect(() =>
      loadConfig({ SHUTDOWN_READINESS_DELAY_MS: "5000", SHUTDOWN_TIMEOUT_MS: "5000" }),
    ).toThrow("SHUTDOWN_READINESS_DELAY_MS: must be less than SHUTDOWN_TIMEOUT_MS");
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: "500" })).toThrow(
      "SHUTDOWN_TIMEOUT_MS: must be at least 1000",
    );
  });

  it("derives PUBLIC_URL from PORT and trims a trailing slash", () => {
    expect(loadConfig({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(loadConfig({ PUBLIC_URL: "https://trade.example/" }).PUBLIC_URL).toBe(
      "https://trade.example",
    );
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["PUBLIC_URL", "not a url"],
    ["DATABASE_URL", "mysql://localhost/db"],
    ["SMTP_URL", "http://mail"],
    ["LOG_LEVEL", "loud"],
    ["RATE_LIMIT_FACTOR", "-1"],
    ["PRACTICE_BALANCE_DOLLARS", "10.001"],
    ["TRUST_PROXY", "maybe"],
    ["ENTRY_PRICE_MAX_AGE_MS", "100"],
    ["ENTRY_PRICE_MAX_AGE_MS", "bonds=2000"],
    ["ENTRY_PRICE_MAX_AGE_MS", "all=2000,all=3000"],
    ["ENTRY_PRICE_MAX_AGE_MS", "crypto=fast"],
    ["SIMULATED_MARKET_HOURS", "sometimes"],
    ["PRICE_HISTORY_HOURS", "-1"],
    ["PRICE_HISTORY_HOURS", "two days"],
  ])("stops with a message naming %s when it is %j", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration:\\n  ${name}: `),
    );
  });

  it("reads the entry price's age limit per asset class, the most specific entry winning", () => {
    expect(loadConfig({}).ENTRY_PRICE_MAX_AGE_MS.forex).toBe(2_000);
    expect(loadConfig({ ENTRY_PRICE_MAX_AGE_MS: "1500" }).ENTRY_PRICE_MAX_AGE_MS.crypto).toBe(
      1_500,
    );
    const limits = loadConfig({
      ENTRY_PRICE_MAX_AGE_MS: "stocks=3000,all=1000",
    }).ENTRY_PRICE_MAX_AGE_MS;
    expect(limits).toEqual({
      commodities: 1_000,
      crypto: 1_000,
      forex: 1_000,
      stocks: 3_000,
      indices: 1_000,
    });
  });

  it("reads the practice top-up level in dollars", () => {
    expect(loadConfig({ PRACTICE_BALANCE_DOLLARS: "2500.50" }).practice_balance_cents).toBe(
      250_050,
    );
  });
});
