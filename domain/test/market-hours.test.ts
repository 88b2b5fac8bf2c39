import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assetCatalogue, assetsOfType } from "../src/catalogue.ts";
import {
  easterSunday,
  formatOpensIn,
  marketSessionAt,
  tradingCalendarOf,
  tradingCalendars,
  tradingExceptions,
} from "../src/market-hours.ts";

// A manual clock: every instant is written as an ISO string with the venue's own offset, so
// each expectation reads as the venue's wall-clock time.
const ms = (iso: string) => {
  const value = Date.parse(iso);
  if (Number.isNaN(value)) throw new Error(`bad test instant ${iso}`);
  return value;
};

function expectOpen(symbol: string, iso: string, closesAt: string) {
  expect(marketSessionAt(symbol, ms(iso)), `${symbol} at ${iso}`).toEqual({
    open: true,
    nextOpenAtMs: null,
    closesAtMs: ms(closesAt),
  });
}

/** Closed at `iso`, opening at `opensAt`, and the countdown reads `countdown`. */
function expectClosed(symbol: string, iso: string, opensAt: string, countdown: string) {
  const session = marketSessionAt(symbol, ms(iso));
  expect(session, `${symbol} at ${iso}`).toEqual({
    open: false,
    nextOpenAtMs: ms(opensAt),
    closesAtMs: null,
  });
  expect(formatOpensIn(ms(opensAt) - ms(iso))).toBe(countdown);
}

describe("trading calendars", () => {
  it("cover every symbol of the catalogue exactly once, and nothing else", () => {
    const calendarSymbols = tradingCalendars.flatMap((calendar) => calendar.symbols);
    expect(new Set(calendarSymbols).size).toBe(calendarSymbols.length);
    expect([...calendarSymbols].sort()).toEqual(assetCatalogue.map((a) => a.symbol).sort());
    for (const asset of assetCatalogue) {
      expect(() => marketSessionAt(asset.symbol, ms("2026-01-05T12:00:00Z"))).not.toThrow();
      expect(tradingCalendarOf(asset.symbol)?.symbols).toContain(asset.symbol);
    }
  });

  it("throw on an unknown symbol", () => {
    expect(() => marketSessionAt("NOPE", Date.now())).toThrow(/NOPE/);
    expect(tradingCalendarOf("NOPE")).toBeUndefined();
  });

  it("describe each venue for the docs: id, name, time zone, hours, holidays", () => {
    for (const calendar of tradingCalendars) {
      expect(calendar.id).toMatch(/^[a-z-]+$/);
      expect(calendar.name.length).toBeGreaterThan(0);
      expect(calendar.hours.length).toBeGreaterThan(0);
      expect(calendar.holidays.length).toBeGreaterThan(0);
      expect(() => new Intl.DateTimeFormat("en", { timeZone: calendar.timeZone })).not.toThrow();
    }
    expect(tradingCalendarOf("DE30")).toMatchObject({ id: "xetra", timeZone: "Europe/Berlin" });
  });
});

describe("formatOpensIn", () => {
  it("rounds minutes up and never says 0 min", () => {
    expect(formatOpensIn(0)).toBe("less than a minute");
    expect(formatOpensIn(-5_000)).toBe("less than a minute");
    expect(formatOpensIn(59_999)).toBe("less than a minute");
    expect(formatOpensIn(60_000)).toBe("1 min");
    expect(formatOpensIn(60_001)).toBe("2 min");
    expect(formatOpensIn(45 * 60_000)).toBe("45 min");
    expect(formatOpensIn(59 * 60_000 + 1)).toBe("1 h");
    expect(formatOpensIn(2 * 3_600_000)).toBe("2 h");
    expect(formatOpensIn((2 * 60 + 14) * 60_000)).toBe("2 h 14 min");
    expect(formatOpensIn((2 * 60 + 13) * 60_000 + 30_000)).toBe("2 h 14 min");
    expect(formatOpensIn(24 * 3_600_000 - 60_000)).toBe("23 h 59 min");
  });

  it("says days and whole hours (rounded up) from one day on", () => {
    expect(formatOpensIn(24 * 3_600_000)).toBe("1 d");
    expect(formatOpensIn(27 * 3_600_000)).toBe("1 d 3 h");
    expect(formatOpensIn(27 * 3_600_000 + 60_000)).toBe("1 d 4 h");
    expect(formatOpensIn(29 * 3_600_000)).toBe("1 d 5 h");
    expect(formatOpensIn(48 * 3_600_000)).toBe("2 d");
    expect(formatOpensIn(Number.NaN)).toBe("less than a minute");
  });
});

describe("easterSunday", () => {
  it("follows the Gregorian computus", () => {
    const known: Record<number, string> = {
      1818: "3-22",
      1943: "4-25",
      2019: "4-21",
      2024: "3-31",
      2025: "4-20",
      2026: "4-5",
      2027: "3-28",
      2028: "4-16",
      2038: "4-25",
      2285: "3-22",
    };
    for (const [year, date] of Object.entries(known)) {
      const { month, day } = easterSunday(Number(year));
      expect(`${month}-${day}`, year).toBe(date);
    }
  });
});

describe("forex: Sunday 17:00 to Friday 17:00 New York", () => {
  it("is open through the week, closing Friday 17:00", () => {
    expectOpen("EURUSD", "2026-01-07T10:00:00-05:00", "2026-01-09T17:00:00-05:00");
    expectOpen("USDJPY", "2026-01-11T17:00:00-05:00", "2026-01-16T17:00:00-05:00");
    expectOpen("GBPJPY", "2026-01-09T16:59:59.999-05:00", "2026-01-09T17:00:00-05:00");
  });

  it("is closed over the weekend, with the countdown to Sunday 17:00", () => {
    expectClosed("EURUSD", "2026-01-10T12:00:00-05:00", "2026-01-11T17:00:00-05:00", "1 d 5 h");
    expectClosed("AUDCAD", "2026-01-09T17:00:00-05:00", "2026-01-11T17:00:00-05:00", "2 d");
    expectClosed("EURGBP", "2026-01-11T16:59:00-05:00", "2026-01-11T17:00:00-05:00", "1 min");
  });

  it("follows New York's clocks: the weekend of the US change is an hour shorter", () => {
    // 8 March 2026, 02:00 EST → 03:00 EDT: Saturday noon EST to Sunday 17:00 EDT is 28 h.
    expectClosed("EURUSD", "2026-03-07T12:00:00-05:00", "2026-03-08T17:00:00-04:00", "1 d 4 h");
    // 1 November 2026, 02:00 EDT → 01:00 EST: the week closed 17:00 EDT and opens 17:00 EST.
    expectOpen("EURUSD", "2026-10-28T12:00:00-04:00", "2026-10-30T17:00:00-04:00");
    expectClosed("EURUSD", "2026-10-31T12:00:00-04:00", "2026-11-01T17:00:00-05:00", "1 d 6 h");
  });
});

describe("US stocks and indices: NYSE 09:30–16:00 New York", () => {
  it("is open inside regular hours and closed outside them", () => {
    expectOpen("AAPL", "2026-11-24T09:30:00-05:00", "2026-11-24T16:00:00-05:00");
    expectOpen("US500", "2026-11-24T15:59:59.999-05:00", "2026-11-24T16:00:00-05:00");
    expectClosed("MSFT", "2026-11-24T09:00:00-05:00", "2026-11-24T09:30:00-05:00", "30 min");
    expectClosed("US30", "2026-11-24T16:00:00-05:00", "2026-11-25T09:30:00-05:00", "17 h 30 min");
    expectClosed("NVDA", "2026-11-21T12:00:00-05:00", "2026-11-23T09:30:00-05:00", "1 d 22 h");
  });

  it("is closed on Thanksgiving and closes at 13:00 the day after", () => {
    expectClosed("AAPL", "2026-11-26T12:00:00-05:00", "2026-11-27T09:30:00-05:00", "21 h 30 min");
    expectOpen("US100", "2026-11-27T10:00:00-05:00", "2026-11-27T13:00:00-05:00");
    expectClosed("TSLA", "2026-11-27T13:00:00-05:00", "2026-11-30T09:30:00-05:00", "2 d 21 h");
  });

  it("is closed on Good Friday", () => {
    expectClosed("GOOGL", "2026-04-03T11:00:00-04:00", "2026-04-06T09:30:00-04:00", "2 d 23 h");
    expectClosed("DIS", "2027-03-26T11:00:00-04:00", "2027-03-29T09:30:00-04:00", "2 d 23 h");
  });

  it("computes the NYSE holidays and early closes by rule", () => {
    // NYSE's published calendars for 2025–2027.
    expect(tradingExceptions("AAPL", 2025)).toEqual({
      closed: [
        "2025-01-01",
        "2025-01-20",
        "2025-02-17",
        "2025-04-18",
        "2025-05-26",
        "2025-06-19",
        "2025-07-04",
        "2025-09-01",
        "2025-11-27",
        "2025-12-25",
      ],
      earlyCloses: { "2025-07-03": "13:00", "2025-11-28": "13:00", "2025-12-24": "13:00" },
    });
    // Independence Day on a Saturday: closed Friday 3 July, no early close on the 2nd.
    expect(tradingExceptions("US500", 2026)).toEqual({
      closed: [
        "2026-01-01",
        "2026-01-19",
        "2026-02-16",
        "2026-04-03",
        "2026-05-25",
        "2026-06-19",
        "2026-07-03",
        "2026-09-07",
        "2026-11-26",
        "2026-12-25",
      ],
      earlyCloses: { "2026-11-27": "13:00", "2026-12-24": "13:00" },
    });
    // Saturday Juneteenth and Christmas observed on the Friday before, Sunday 4 July on Monday.
    expect(tradingExceptions("MSFT", 2027)).toEqual({
      closed: [
        "2027-01-01",
        "2027-01-18",
        "2027-02-15",
        "2027-03-26",
        "2027-05-31",
        "2027-06-18",
        "2027-07-05",
        "2027-09-06",
        "2027-11-25",
        "2027-12-24",
      ],
      earlyCloses: { "2027-11-26": "13:00" },
    });
    // A Saturday New Year's Day (2022, 2028) is not observed on the Friday before.
    expect(tradingExceptions("AAPL", 2021).closed).not.toContain("2021-12-31");
    expectOpen("AAPL", "2027-12-31T10:00:00-05:00", "2027-12-31T16:00:00-05:00");
    // A Sunday New Year's Day (2023) is observed on the Monday.
    expect(tradingExceptions("AAPL", 2023).closed).toContain("2023-01-02");
    // Juneteenth starts in 2022.
    expect(tradingExceptions("AAPL", 2021).closed).not.toContain("2021-06-18");
  });

  it("opens at 09:30 New York on both sides of the US clock change", () => {
    expectClosed("AAPL", "2026-03-06T16:30:00-05:00", "2026-03-09T09:30:00-04:00", "2 d 16 h");
    expect(marketSessionAt("AAPL", ms("2026-03-09T13:30:00Z")).open).toBe(true);
    expect(marketSessionAt("AAPL", ms("2026-03-09T13:29:59.999Z")).open).toBe(false);
    expect(marketSessionAt("AAPL", ms("2026-03-06T14:30:00Z")).open).toBe(true);
    expect(marketSessionAt("AAPL", ms("2026-03-06T14:29:59.999Z")).open).toBe(false);
  });
});

describe("indices on their exchanges", () => {
  it("DE30 (Xetra): 09:00–17:30 Berlin, closed 24–26 and 31 December", () => {
    expectOpen("DE30", "2026-12-23T09:00:00+01:00", "2026-12-23T17:30:00+01:00");
    expectClosed("DE30", "2026-12-23T17:30:00+01:00", "2026-12-28T09:00:00+01:00", "4 d 16 h");
    expectClosed("DE30", "2026-12-24T12:00:00+01:00", "2026-12-28T09:00:00+01:00", "3 d 21 h");
    expectClosed("DE30", "2026-12-31T08:00:00+01:00", "2027-01-04T09:00:00+01:00", "4 d 1 h");
    expectClosed("DE30", "2026-04-06T10:00:00+02:00", "2026-04-07T09:00:00+02:00", "23 h");
    expect(tradingExceptions("DE30", 2025).closed).toEqual([
      "2025-01-01",
      "2025-04-18",
      "2025-04-21",
      "2025-05-01",
      "2025-12-24",
      "2025-12-25",
      "2025-12-26",
      "2025-12-31",
    ]);
  });

  it("FR40 (Euronext Paris): 09:00–17:30 Paris, early close on 24 and 31 December", () => {
    expectOpen("FR40", "2026-06-10T09:00:00+02:00", "2026-06-10T17:30:00+02:00");
    expectClosed("FR40", "2026-05-01T10:00:00+02:00", "2026-05-04T09:00:00+02:00", "2 d 23 h");
    expectOpen("FR40", "2026-12-24T10:00:00+01:00", "2026-12-24T14:05:00+01:00");
    expect(tradingExceptions("FR40", 2025)).toEqual({
      closed: ["2025-01-01", "2025-04-18", "2025-04-21", "2025-05-01", "2025-12-25", "2025-12-26"],
      earlyCloses: { "2025-12-24": "14:05", "2025-12-31": "14:05" },
    });
  });

  it("UK100 (LSE): 08:00–16:30 London, bank holidays with substitutes, 12:30 close on 24 Dec", () => {
    expectOpen("UK100", "2026-12-24T08:00:00Z", "2026-12-24T12:30:00Z");
    // Boxing Day 2026 is a Saturday: the substitute is Monday 28 December.
    expectClosed("UK100", "2026-12-24T12:30:00Z", "2026-12-29T08:00:00Z", "4 d 20 h");
    expect(tradingExceptions("UK100", 2026)).toEqual({
      closed: [
        "2026-01-01",
        "2026-04-03",
        "2026-04-06",
        "2026-05-04",
        "2026-05-25",
        "2026-08-31",
        "2026-12-25",
        "2026-12-28",
      ],
      earlyCloses: { "2026-12-24": "12:30", "2026-12-31": "12:30" },
    });
    // Christmas on a Saturday (2027): Monday 27 and Tuesday 28 December.
    expect(tradingExceptions("UK100", 2027).closed.slice(-2)).toEqual(["2027-12-27", "2027-12-28"]);
    // Christmas on a Sunday (2022): Boxing Day Monday 26, Christmas substitute Tuesday 27.
    expect(tradingExceptions("UK100", 2022).closed.slice(-2)).toEqual(["2022-12-26", "2022-12-27"]);
    // New Year's Day on a Saturday (2022): Monday 3 January.
    expect(tradingExceptions("UK100", 2022).closed[0]).toBe("2022-01-03");
  });

  it("UK100 opens at 08:00 London while New York has already changed its clocks", () => {
    // 10 March 2026: New York is on EDT (since 8 March), London still on GMT (until 29 March).
    // 08:00 London is 08:00 UTC, 04:00 in New York (not 03:00).
    expectClosed("UK100", "2026-03-10T07:59:59.999Z", "2026-03-10T08:00:00Z", "less than a minute");
    expectOpen("UK100", "2026-03-10T08:00:00Z", "2026-03-10T16:30:00Z");
    expect(marketSessionAt("UK100", ms("2026-03-10T04:00:00-04:00")).open).toBe(true);
    // After London's change (29 March), 08:00 London is 07:00 UTC.
    expectClosed("UK100", "2026-03-27T16:30:00Z", "2026-03-30T08:00:00+01:00", "2 d 15 h");
    expectOpen("UK100", "2026-03-30T07:00:00Z", "2026-03-30T16:30:00+01:00");
    // Autumn: London back on GMT on 25 October, New York on 1 November.
    expectOpen("UK100", "2026-10-26T08:00:00Z", "2026-10-26T16:30:00Z");
    expect(marketSessionAt("UK100", ms("2026-10-26T07:30:00Z")).open).toBe(false);
  });

  it("DE30 and FR40 follow the European change (last Sunday of March), not the US one", () => {
    expectOpen("DE30", "2026-03-27T08:00:00Z", "2026-03-27T16:30:00Z");
    expectClosed("DE30", "2026-03-30T06:59:00Z", "2026-03-30T07:00:00Z", "1 min");
    expectClosed("FR40", "2026-03-29T12:00:00+02:00", "2026-03-30T09:00:00+02:00", "21 h");
  });

  it("JP225 (Tokyo): two sessions around the lunch break, listed holidays", () => {
    expectOpen("JP225", "2026-03-10T09:00:00+09:00", "2026-03-10T11:30:00+09:00");
    expectClosed("JP225", "2026-03-10T11:30:00+09:00", "2026-03-10T12:30:00+09:00", "1 h");
    expectOpen("JP225", "2026-03-10T12:30:00+09:00", "2026-03-10T15:30:00+09:00");
    expectClosed("JP225", "2026-03-10T15:30:00+09:00", "2026-03-11T09:00:00+09:00", "17 h 30 min");
    // Silver week 2026: 21–23 September.
    expectClosed("JP225", "2026-09-18T16:00:00+09:00", "2026-09-24T09:00:00+09:00", "5 d 17 h");
    // Year-end closure: 31 December to 3 January; trading resumes Monday 5 January 2026.
    expectClosed("JP225", "2025-12-30T16:00:00+09:00", "2026-01-05T09:00:00+09:00", "5 d 17 h");
  });

  it("HK50 (Hong Kong): lunch break, listed holidays, half day on Lunar New Year's Eve", () => {
    expectOpen("HK50", "2026-03-10T09:30:00+08:00", "2026-03-10T12:00:00+08:00");
    expectClosed("HK50", "2026-03-10T12:00:00+08:00", "2026-03-10T13:00:00+08:00", "1 h");
    expectOpen("HK50", "2026-02-16T10:00:00+08:00", "2026-02-16T12:00:00+08:00");
    expectClosed("HK50", "2026-02-16T12:00:00+08:00", "2026-02-20T09:30:00+08:00", "3 d 22 h");
    expectClosed("HK50", "2026-04-02T16:00:00+08:00", "2026-04-08T09:30:00+08:00", "5 d 18 h");
  });

  it("Tokyo and Hong Kong lists hold only weekdays of their own year; no list means open", () => {
    for (const symbol of ["JP225", "HK50"]) {
      for (const year of [2025, 2026]) {
        const { closed, earlyCloses } = tradingExceptions(symbol, year);
        expect(closed.length).toBeGreaterThan(10);
        for (const iso of [...closed, ...Object.keys(earlyCloses)]) {
          const weekday = new Date(`${iso}T00:00:00Z`).getUTCDay();
          expect(weekday, `${symbol} ${iso}`).not.toBe(0);
          expect(weekday, `${symbol} ${iso}`).not.toBe(6);
        }
      }
      // No list for 2030: every weekday trades (nothing invented).
      expect(tradingExceptions(symbol, 2030)).toEqual({ closed: [], earlyCloses: {} });
    }
    expect(marketSessionAt("JP225", ms("2030-01-02T10:00:00+09:00")).open).toBe(true);
  });
});

describe("commodities on their venues' sessions", () => {
  it("CME Globex metals and energy: Sunday 18:00 to Friday 17:00 New York, break 17:00–18:00", () => {
    expectOpen("XAUUSD", "2026-01-14T12:00:00-05:00", "2026-01-14T17:00:00-05:00");
    expectClosed("XAGUSD", "2026-01-14T17:30:00-05:00", "2026-01-14T18:00:00-05:00", "30 min");
    expectOpen("WTICOUSD", "2026-01-14T18:00:00-05:00", "2026-01-15T17:00:00-05:00");
    expectClosed("NGASUSD", "2026-01-16T17:00:00-05:00", "2026-01-18T18:00:00-05:00", "2 d 1 h");
    expectClosed("XCUUSD", "2026-01-17T12:00:00-05:00", "2026-01-18T18:00:00-05:00", "1 d 6 h");
  });

  it("ICE Brent: 01:00–23:00 London, i.e. 20:00–18:00 New York when the clocks agree", () => {
    expectOpen("BCOUSD", "2026-01-14T20:00:00-05:00", "2026-01-15T18:00:00-05:00");
    expectClosed("BCOUSD", "2026-01-14T18:00:00-05:00", "2026-01-14T20:00:00-05:00", "2 h");
    expectClosed("BCOUSD", "2026-01-17T12:00:00-05:00", "2026-01-18T20:00:00-05:00", "1 d 8 h");
    expectClosed("BCOUSD", "2026-01-16T18:00:00-05:00", "2026-01-18T20:00:00-05:00", "2 d 2 h");
    // While New York is on EDT and London on GMT, 01:00 London is 21:00 New York.
    expectClosed("BCOUSD", "2026-03-10T20:30:00-04:00", "2026-03-10T21:00:00-04:00", "30 min");
    expectOpen("BCOUSD", "2026-03-10T21:00:00-04:00", "2026-03-11T23:00:00Z");
  });

  it("CBOT grains: 19:00–07:45 and 08:30–13:20 Chicago", () => {
    expectOpen("CORNUSD", "2026-01-13T07:00:00-06:00", "2026-01-13T07:45:00-06:00");
    expectClosed("WHEATUSD", "2026-01-13T08:00:00-06:00", "2026-01-13T08:30:00-06:00", "30 min");
    expectOpen("CORNUSD", "2026-01-13T08:30:00-06:00", "2026-01-13T13:20:00-06:00");
    expectClosed("CORNUSD", "2026-01-13T13:20:00-06:00", "2026-01-13T19:00:00-06:00", "5 h 40 min");
    expectOpen("WHEATUSD", "2026-01-13T23:00:00-06:00", "2026-01-14T07:45:00-06:00");
    expectClosed("CORNUSD", "2026-01-16T13:20:00-06:00", "2026-01-18T19:00:00-06:00", "2 d 6 h");
    // Sunday of the US change: 19:00 CDT.
    expectClosed("CORNUSD", "2026-03-08T12:00:00-05:00", "2026-03-08T19:00:00-05:00", "7 h");
  });
});

describe("crypto", () => {
  it("is always open and never closes", () => {
    for (const { symbol } of assetsOfType("crypto")) {
      for (const iso of ["2026-01-10T12:00:00Z", "2026-12-25T00:00:00Z", "2026-03-08T07:00:00Z"]) {
        expect(marketSessionAt(symbol, ms(iso))).toEqual({
          open: true,
          nextOpenAtMs: null,
          closesAtMs: null,
        });
      }
    }
  });
});

describe("the engine", () => {
  const symbols = tradingCalendars
    .filter((calendar) => calendar.id !== "crypto")
    .map((calendar) => calendar.symbols[0] ?? "");
  const from = ms("2025-01-01T00:00:00Z");
  const to = ms("2027-01-01T00:00:00Z");

  it("opens exactly at nextOpenAtMs and closes exactly at closesAtMs (random instants, 2 years)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...symbols),
        fc.integer({ min: from, max: to }),
        (symbol, atMs) => {
          const session = marketSessionAt(symbol, atMs);
          if (session.open) {
            expect(session.nextOpenAtMs).toBeNull();
            const closesAt = session.closesAtMs ?? Number.NaN;
            expect(closesAt).toBeGreaterThan(atMs);
            expect(marketSessionAt(symbol, closesAt - 1)).toMatchObject({
              open: true,
              closesAtMs: closesAt,
            });
            expect(marketSessionAt(symbol, closesAt).open).toBe(false);
          } else {
            expect(session.closesAtMs).toBeNull();
            const opensAt = session.nextOpenAtMs ?? Number.NaN;
            expect(opensAt).toBeGreaterThan(atMs);
            expect(opensAt - atMs).toBeLessThan(7 * 86_400_000);
            expect(marketSessionAt(symbol, opensAt - 1)).toMatchObject({
              open: false,
              nextOpenAtMs: opensAt,
            });
            expect(marketSessionAt(symbol, opensAt).open).toBe(true);
            expect(marketSessionAt(symbol, opensAt + 1).open).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("walks every opening and closing of two years, each boundary exact to the millisecond", () => {
    for (const symbol of symbols) {
      let atMs = from;
      let boundaries = 0;
      while (atMs < to) {
        const session = marketSessionAt(symbol, atMs);
        const next = session.open ? session.closesAtMs : session.nextOpenAtMs;
        if (next === null) throw new Error(`${symbol}: no next boundary after ${atMs}`);
        expect(next).toBeGreaterThan(atMs);
        expect(marketSessionAt(symbol, next - 1).open, `${symbol} before ${next}`).toBe(
          session.open,
        );
        expect(marketSessionAt(symbol, next).open, `${symbol} at ${next}`).toBe(!session.open);
        atMs = next;
        boundaries++;
      }
      // At least one opening and one closing per trading week.
      expect(boundaries, symbol).toBeGreaterThan(2 * 100);
    }
    // Thousands of lookups: several seconds on a busy machine, past the default 5 s.
  }, 60_000);
});
