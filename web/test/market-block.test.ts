import { marketStateMessages } from "@tp/domain/market-state";
import { tradingRestrictedNotice } from "@tp/domain/restricted-countries";
import { excludedMessage } from "@tp/domain/trader-limits";
import { describe, expect, it } from "vitest";
import { closedMessage } from "../src/components/market-state-text.ts";
import { realTradingNotice } from "../src/funding/real-trading-notice.tsx";
import { countryBlock, exclusionBlock, marketBlock } from "../src/routes/dashboard/market-block.ts";
import { marketsFixture } from "./fake-api.ts";

const nowMs = Date.parse("2026-01-17T12:00:00.000Z");
const minute_ms = 60_000;
const at = (offsetMs: number) => new Date(nowMs + offsetMs).toISOString();
const eurusd = marketsFixture.find((market) => market.symbol === "EURUSD");
if (!eurusd) throw new Error("fixture without EURUSD");

describe("the closed countdown (issue 11)", () => {
  it("says when the market opens, in hours and minutes, rounded up", () => {
    expect(closedMessage(at(134 * minute_ms), nowMs)).toBe("Market closed — opens in 2 h 14 min");
    expect(closedMessage(at(134 * minute_ms - 59_000), nowMs)).toBe(
      "Market closed — opens in 2 h 14 min",
    );
    expect(closedMessage(at(134 * minute_ms - 61_000), nowMs)).toBe(
      "Market closed — opens in 2 h 13 min",
    );
    expect(closedMessage(at(5 * minute_ms), nowMs)).toBe("Market closed — opens in 5 min");
  });

  it("never shows a time gone by or an unknown one", () => {
    expect(closedMessage(null, nowMs)).toBe(marketStateMessages.closed);
    expect(closedMessage(at(-1), nowMs)).toBe(marketStateMessages.closed);
    expect(closedMessage(at(0), nowMs)).toBe(marketStateMessages.closed);
    expect(closedMessage("not a date", nowMs)).toBe(marketStateMessages.closed);
  });
});

describe("what stops Call and Put before they are pressed", () => {
  it("closed, then halted, then the real account on a market it may not trade", () => {
    const closed = { ...eurusd, state: "closed" as const, next_open_at: at(47 * minute_ms) };
    expect(marketBlock(closed, true, nowMs)).toEqual({
      kind: "closed",
      message: "Market closed — opens in 47 min",
    });
    const halted = { ...eurusd, state: "halted" as const };
    expect(marketBlock(halted, false, nowMs)).toEqual({
      kind: "halted",
      message: marketStateMessages.halted,
    });
    const open = { ...eurusd, state: "open" as const, real_trading: false };
    expect(marketBlock(open, true, nowMs)).toBeNull();
    expect(marketBlock(open, false, nowMs)).toEqual({
      kind: "real_unavailable",
      message: marketStateMessages.realUnavailable,
    });
    expect(marketBlock({ ...open, real_trading: true }, false, nowMs)).toBeNull();
    // Not loaded yet: the server still checks every trade.
    expect(marketBlock(undefined, false, nowMs)).toBeNull();
  });
});

describe("the deposit page's real-trading notice", () => {
  it("speaks when real trading is off on every or most markets, and gives the real reason", () => {
    const all = marketsFixture.map((market) => ({ ...market, real_trading: false }));
    expect(realTradingNotice(all)).toBe(
      `${marketStateMessages.realUnavailable} Money you deposit cannot be traded on any market until the platform has live prices.`,
    );
    const most = marketsFixture.map((market, index) => ({
      ...market,
      real_trading: index < 3,
    }));
    expect(realTradingNotice(most)).toBe(
      `Real-account trading is not available on ${marketsFixture.length - 3} of ${marketsFixture.length} markets while their prices are simulated.`,
    );
    const noPricesYet = all.map((market) => ({ ...market, source: null }));
    expect(realTradingNotice(noPricesYet)).toMatch(
      /^Real-account trading is not available on any market right now/,
    );
    const few = marketsFixture.map((market, index) => ({ ...market, real_trading: index > 3 }));
    expect(realTradingNotice(few)).toBeNull();
    expect(realTradingNotice([])).toBeNull();
  });
});

describe("a restricted country on the trade box (issue 14 item 4)", () => {
  it("blocks the real account of a resident, never practice, and nothing while the list loads", () => {
    expect(countryBlock("France", true, false)).toEqual({
      kind: "country_restricted",
      message: tradingRestrictedNotice("France"),
    });
    expect(countryBlock("France", true, true)).toBeNull();
    expect(countryBlock("Brazil", false, false)).toBeNull();
    expect(countryBlock("France", undefined, false)).toBeNull();
  });
});

describe("a break on the trade box (issue 14 item 2)", () => {
  const timeOut = { kind: "time_out" as const, started_at: at(-minute_ms), ends_at: at(minute_ms) };

  it("blocks trading (practice too, as the server does) until the break ends, with its end", () => {
    expect(exclusionBlock(timeOut, nowMs)).toEqual({
      kind: "excluded",
      message: excludedMessage("time_out", timeOut.ends_at),
    });
    expect(exclusionBlock(timeOut, nowMs)?.message).toContain("Sat, 17 Jan 2026, 12:01 UTC");
    expect(exclusionBlock(timeOut, nowMs + minute_ms)).toBeNull();
    // None, or not loaded yet: the server still checks every trade.
    expect(exclusionBlock(null, nowMs)).toBeNull();
    expect(exclusionBlock(undefined, nowMs)).toBeNull();
  });

  it("a closure has no end: blocked for good", () => {
    const closure = { kind: "closure" as const, started_at: at(-minute_ms), ends_at: null };
    expect(exclusionBlock(closure, nowMs + 1000 * 86_400_000)?.message).toBe(
      excludedMessage("closure", null),
    );
  });
});
