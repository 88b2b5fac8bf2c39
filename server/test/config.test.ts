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
  ])("stops with a message naming %s when it is %j", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration:\\n  ${name}: `),
    );
  });

  it("reads the practice top-up level in dollars", () => {
    expect(loadConfig({ PRACTICE_BALANCE_DOLLARS: "2500.50" }).practice_balance_cents).toBe(
      250_050,
    );
  });
});
