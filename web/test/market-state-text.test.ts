import { describe, expect, it } from "vitest";
import { marketStateText } from "../src/components/market-state-text.ts";

describe("market state text", () => {
  const nowMs = Date.parse("2026-11-23T12:00:00Z");
  const inMs = (ms: number) => new Date(nowMs + ms).toISOString();

  it("says open, halted, and closed with the time until it opens", () => {
    expect(marketStateText("open", null, nowMs)).toBe("Open");
    expect(marketStateText("halted", null, nowMs)).toBe("Prices delayed — trading paused");
    expect(marketStateText("closed", inMs((2 * 60 + 14) * 60_000), nowMs)).toBe(
      "Market closed — opens in 2 h 14 min",
    );
    expect(marketStateText("closed", null, nowMs)).toBe("Market closed");
    expect(marketStateText("closed", "not a date", nowMs)).toBe("Market closed");
  });
});
