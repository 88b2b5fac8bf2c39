import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PriceStore, ticks_per_symbol_max } from "../src/prices/price-store.ts";

describe("price store", () => {
  it("finds the tick in force and the ticks between two instants, as a plain scan would", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2_000 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 700_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (gapsMs, probeMs, spanMs) => {
          const store = new PriceStore();
          const ticks: Array<{ at: number; price: number }> = [];
          let at = 1_000;
          for (const [index, gap] of gapsMs.entries()) {
            at += gap;
            ticks.push({ at, price: index + 1 });
            store.record({ symbol: "EURUSD", price: index + 1, at, source: "simulated" });
          }
          const inForce = ticks.filter((tick) => tick.at <= probeMs).at(-1);
          expect(store.inForceAt("EURUSD", probeMs)?.price).toBe(inForce?.price);
          const between = ticks
            .filter((tick) => tick.at >= probeMs && tick.at <= probeMs + spanMs)
            .slice(0, 200);
          expect(
            store.between("EURUSD", probeMs, probeMs + spanMs).map((tick) => tick.price),
          ).toEqual(between.map((tick) => tick.price));
        },
      ),
    );
  });

  it("keeps a bounded ring: the oldest ticks go, and it no longer claims to cover them", () => {
    const store = new PriceStore();
    for (let index = 0; index < ticks_per_symbol_max + 10; index++) {
      store.record({ symbol: "XAUUSD", price: index, at: index * 250, source: "simulated" });
    }
    expect(store.covers("XAUUSD", 0)).toBe(false);
    expect(store.inForceAt("XAUUSD", 5 * 250)).toBeUndefined();
    expect(store.inForceAt("XAUUSD", 10 * 250)?.price).toBe(10);
    expect(store.last("XAUUSD")?.price).toBe(ticks_per_symbol_max + 9);
  });

  it("ignores a tick older than the newest one", () => {
    const store = new PriceStore();
    expect(store.record({ symbol: "AAPL", price: 1, at: 2_000, source: "simulated" })).toBe(true);
    expect(store.record({ symbol: "AAPL", price: 2, at: 1_000, source: "simulated" })).toBe(false);
    expect(store.last("AAPL")?.price).toBe(1);
  });
});
