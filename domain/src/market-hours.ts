/**
 * Trading calendars (issue 11, "Market hours"): when each catalogue symbol's venue trades.
 *
 * Every calendar is a small data description (`calendarSpecs` below): the venue's IANA time
 * zone, its weekly sessions in that zone's wall-clock time, its holidays and early closes
 * (by rule, or listed per year where no rule exists), and the symbols it prices. One engine
 * (`marketSessionAt`) reads them all. Pure: no I/O; time zones come from
 * `Intl.DateTimeFormat` (Node 20 and browsers), one formatter per zone, so daylight saving is
 * the venue's own.
 *
 * Not modelled: one-off closures (national mourning, proclaimed extra bank holidays), and the
 * holiday schedules of the futures venues (CME, ICE, CBOT) and of forex, which this platform
 * quotes as continuous around-the-clock markets.
 */

export interface MarketSession {
  open: boolean;
  /** Epoch ms of the next opening when closed (null when open, or when always open). */
  nextOpenAtMs: number | null;
  /** Epoch ms when the current session closes when open (null when closed or never closes). */
  closesAtMs: number | null;
}

/** One venue's calendar as docs and the README describe it. */
export interface TradingCalendarDescription {
  id: string;
  name: string;
  /** IANA time zone the hours are given in ("UTC" for the always-open calendar). */
  timeZone: string;
  /** Trading hours as text, in `timeZone`'s local time. */
  hours: string;
  /** Holidays and early closes as text. */
  holidays: string;
  symbols: readonly string[];
}

// ---------------------------------------------------------------------------------------
// Calendar descriptions (data)
// ---------------------------------------------------------------------------------------

/** 0 = Sunday … 6 = Saturday, as `Date.prototype.getUTCDay`. */
type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;
const MON = 1;
const THU = 4;

/** A day of the year: a fixed date, the nth weekday of a month (-1: the last), or Easter ± days. */
type DateRule = (
  | { month: number; day: number }
  | { month: number; weekday: Weekday; nth: 1 | 2 | 3 | 4 | -1 }
  | { easter: number }
) & { plusDays?: number };

/**
 * What happens when a holiday falls on a weekend:
 * - `none`: nothing (the weekend is closed anyway);
 * - `us`: Saturday → the Friday before, Sunday → the Monday after (NYSE rule 7.2);
 * - `us-sunday-only`: Sunday → the Monday after, Saturday not observed (NYSE's New Year's
 *   Day: the Friday before ends a monthly and yearly accounting period, so it stays open);
 * - `substitute`: the next weekday that is not already a holiday (England and Wales).
 */
type Observance = "none" | "us" | "us-sunday-only" | "substitute";

interface HolidayRule {
  name: string;
  date: DateRule;
  observed?: Observance;
  /** First year the rule applies. */
  fromYear?: number;
}

interface EarlyCloseRule {
  name: string;
  date: DateRule;
  /** Local "HH:MM": sessions end here; applies only when the day is a trading day. */
  close: string;
}

/** Dates a venue publishes each year where no rule computes them (lunar and equinox holidays). */
interface ListedYear {
  /** ISO dates the venue is closed (weekdays). */
  closed: readonly string[];
  /** ISO date → local "HH:MM" close. */
  earlyCloses?: Readonly<Record<string, string>>;
}

interface CalendarSpec {
  id: string;
  name: string;
  timeZone: string;
  hours: string;
  holidays: string;
  symbols: readonly string[];
  /** Never closes (crypto). */
  alwaysOpen?: boolean;
  /**
   * Weekly sessions, local wall-clock time: keys are a day ("Sun") or a range ("Mon-Fri"),
   * values space-separated "HH:MM-HH:MM" intervals. An interval ending at 24:00 continues
   * into the next day's interval starting at 00:00 (one session across midnight).
   */
  week?: Readonly<Record<string, string>>;
  holidayRules?: readonly HolidayRule[];
  earlyCloseRules?: readonly EarlyCloseRule[];
  listedYears?: Readonly<Record<number, ListedYear>>;
}

const usStocks = ["AAPL", "MSFT", "GOOGL", "AMZN", "TSLA", "NVDA", "NFLX", "DIS"];
const usIndices = ["US500", "US30", "US100"];

const calendarSpecs: readonly CalendarSpec[] = [
  {
    id: "forex",
    name: "Forex (interbank, New York close)",
    timeZone: "America/New_York",
    hours: "Continuous from Sunday 17:00 to Friday 17:00",
    holidays: "None",
    symbols: ["AUDCAD", "AUDJPY", "EURUSD", "EURGBP", "EURJPY", "GBPUSD", "GBPJPY", "USDJPY"],
    week: { Sun: "17:00-24:00", "Mon-Thu": "00:00-24:00", Fri: "00:00-17:00" },
  },
  {
    id: "nyse",
    name: "New York Stock Exchange",
    timeZone: "America/New_York",
    hours: "Monday–Friday 09:30–16:00",
    holidays:
      "NYSE holidays by rule (New Year's Day, Martin Luther King Jr. Day, Washington's Birthday, " +
      "Good Friday, Memorial Day, Juneteenth, Independence Day, Labor Day, Thanksgiving, " +
      "Christmas; Saturday → Friday before, Sunday → Monday after, except a Saturday New Year's " +
      "Day); 13:00 close on 3 July, the day after Thanksgiving and 24 December when trading days",
    symbols: [...usStocks, ...usIndices],
    week: { "Mon-Fri": "09:30-16:00" },
    holidayRules: [
      { name: "New Year's Day", date: { month: 1, day: 1 }, observed: "us-sunday-only" },
      { name: "Martin Luther King Jr. Day", date: { month: 1, weekday: MON, nth: 3 } },
      { name: "Washington's Birthday", date: { month: 2, weekday: MON, nth: 3 } },
      { name: "Good Friday", date: { easter: -2 } },
      { name: "Memorial Day", date: { month: 5, weekday: MON, nth: -1 } },
      // The NYSE first closed for Juneteenth in 2022.
      { name: "Juneteenth", date: { month: 6, day: 19 }, observed: "us", fromYear: 2022 },
      { name: "Independence Day", date: { month: 7, day: 4 }, observed: "us" },
      { name: "Labor Day", date: { month: 9, weekday: MON, nth: 1 } },
      { name: "Thanksgiving Day", date: { month: 11, weekday: THU, nth: 4 } },
      { name: "Christmas Day", date: { month: 12, day: 25 }, observed: "us" },
    ],
    earlyCloseRules: [
      { name: "Day before Independence Day", date: { month: 7, day: 3 }, close: "13:00" },
      {
        name: "Day after Thanksgiving",
        date: { month: 11, weekday: THU, nth: 4, plusDays: 1 },
        close: "13:00",
      },
      { name: "Christmas Eve", date: { month: 12, day: 24 }, close: "13:00" },
    ],
  },
  {
    id: "xetra",
    name: "Xetra (Deutsche Börse)",
    timeZone: "Europe/Berlin",
    hours: "Monday–Friday 09:00–17:30",
    holidays: "New Year's Day, Good Friday, Easter Monday, 1 May, 24, 25, 26 and 31 December",
    symbols: ["DE30"],
    week: { "Mon-Fri": "09:00-17:30" },
    holidayRules: [
      { name: "New Year's Day", date: { month: 1, day: 1 } },
      { name: "Good Friday", date: { easter: -2 } },
      { name: "Easter Monday", date: { easter: 1 } },
      { name: "Labour Day", date: { month: 5, day: 1 } },
      { name: "Christmas Eve", date: { month: 12, day: 24 } },
      { name: "Christmas Day", date: { month: 12, day: 25 } },
      { name: "Boxing Day", date: { month: 12, day: 26 } },
      { name: "New Year's Eve", date: { month: 12, day: 31 } },
    ],
  },
  {
    id: "euronext-paris",
    name: "Euronext Paris",
    timeZone: "Europe/Paris",
    hours: "Monday–Friday 09:00–17:30",
    holidays:
      "New Year's Day, Good Friday, Easter Monday, 1 May, 25 and 26 December; 14:05 close on " +
      "24 and 31 December when trading days",
    symbols: ["FR40"],
    week: { "Mon-Fri": "09:00-17:30" },
    holidayRules: [
      { name: "New Year's Day", date: { month: 1, day: 1 } },
      { name: "Good Friday", date: { easter: -2 } },
      { name: "Easter Monday", date: { easter: 1 } },
      { name: "Labour Day", date: { month: 5, day: 1 } },
      { name: "Christmas Day", date: { month: 12, day: 25 } },
      { name: "Boxing Day", date: { month: 12, day: 26 } },
    ],
    // Euronext's cash markets close early (14:05 CET) on Christmas Eve and New Year's Eve.
    earlyCloseRules: [
      { name: "Christmas Eve", date: { month: 12, day: 24 }, close: "14:05" },
      { name: "New Year's Eve", date: { month: 12, day: 31 }, close: "14:05" },
    ],
  },
  {
    id: "lse",
    name: "London Stock Exchange",
    timeZone: "Europe/London",
    hours: "Monday–Friday 08:00–16:30",
    holidays:
      "England and Wales bank holidays by rule (New Year's Day, Good Friday, Easter Monday, " +
      "first and last Monday of May, last Monday of August, Christmas Day, Boxing Day; a " +
      "weekend holiday moves to the next free weekday); 12:30 close on 24 and 31 December " +
      "when trading days",
    symbols: ["UK100"],
    week: { "Mon-Fri": "08:00-16:30" },
    holidayRules: [
      { name: "New Year's Day", date: { month: 1, day: 1 }, observed: "substitute" },
      { name: "Good Friday", date: { easter: -2 } },
      { name: "Easter Monday", date: { easter: 1 } },
      { name: "Early May bank holiday", date: { month: 5, weekday: MON, nth: 1 } },
      { name: "Spring bank holiday", date: { month: 5, weekday: MON, nth: -1 } },
      { name: "Summer bank holiday", date: { month: 8, weekday: MON, nth: -1 } },
      { name: "Christmas Day", date: { month: 12, day: 25 }, observed: "substitute" },
      { name: "Boxing Day", date: { month: 12, day: 26 }, observed: "substitute" },
    ],
    earlyCloseRules: [
      { name: "Christmas Eve", date: { month: 12, day: 24 }, close: "12:30" },
      { name: "New Year's Eve", date: { month: 12, day: 31 }, close: "12:30" },
    ],
  },
  {
    id: "tse",
    name: "Tokyo Stock Exchange",
    timeZone: "Asia/Tokyo",
    hours: "Monday–Friday 09:00–11:30 and 12:30–15:30",
    holidays:
      "Japanese national holidays and the 31 December – 3 January closure, listed per year " +
      "(2025, 2026); a year without a list trades every weekday",
    symbols: ["JP225"],
    week: { "Mon-Fri": "09:00-11:30 12:30-15:30" },
    // The equinox holidays are fixed by the National Astronomical Observatory each February
    // for the next year, and substitute / "citizens'" holidays follow from them, so there is
    // no rule to compute: these lists MUST BE EXTENDED EVERY YEAR from JPX's published
    // calendar (https://www.jpx.co.jp/english/corporate/about-jpx/calendar/). A year with no
    // list is treated as open every weekday; never fill a year in by guesswork.
    listedYears: {
      // Source: JPX "Market Holidays" 2025 (national holidays on weekdays, plus 1–3 Jan and
      // 31 Dec). Weekend holidays are omitted: the weekend is closed anyway.
      2025: {
        closed: [
          "2025-01-01",
          "2025-01-02",
          "2025-01-03",
          "2025-01-13", // Coming of Age Day
          "2025-02-11", // National Foundation Day
          "2025-02-24", // Emperor's Birthday (23 Feb, Sunday), substitute
          "2025-03-20", // Vernal Equinox Day
          "2025-04-29", // Showa Day
          "2025-05-05", // Children's Day
          "2025-05-06", // Greenery Day (4 May, Sunday), substitute
          "2025-07-21", // Marine Day
          "2025-08-11", // Mountain Day
          "2025-09-15", // Respect for the Aged Day
          "2025-09-23", // Autumnal Equinox Day
          "2025-10-13", // Sports Day
          "2025-11-03", // Culture Day
          "2025-11-24", // Labour Thanksgiving Day (23 Nov, Sunday), substitute
          "2025-12-31",
        ],
      },
      // Source: JPX "Market Holidays" 2026, same scope as 2025.
      2026: {
        closed: [
          "2026-01-01",
          "2026-01-02",
          "2026-01-12", // Coming of Age Day
          "2026-02-11", // National Foundation Day
          "2026-02-23", // Emperor's Birthday
          "2026-03-20", // Vernal Equinox Day
          "2026-04-29", // Showa Day
          "2026-05-04", // Greenery Day
          "2026-05-05", // Children's Day
          "2026-05-06", // Constitution Day (3 May, Sunday), substitute
          "2026-07-20", // Marine Day
          "2026-08-11", // Mountain Day
          "2026-09-21", // Respect for the Aged Day
          "2026-09-22", // Citizens' holiday (between two holidays)
          "2026-09-23", // Autumnal Equinox Day
          "2026-10-12", // Sports Day
          "2026-11-03", // Culture Day
          "2026-11-23", // Labour Thanksgiving Day
          "2026-12-31",
        ],
      },
    },
  },
  {
    id: "hkex",
    name: "Hong Kong Exchanges (HKEX)",
    timeZone: "Asia/Hong_Kong",
    hours: "Monday–Friday 09:30–12:00 and 13:00–16:00",
    holidays:
      "Hong Kong general holidays, listed per year (2025, 2026); morning session only on the " +
      "eves of Christmas, New Year and Lunar New Year; a year without a list trades every weekday",
    symbols: ["HK50"],
    week: { "Mon-Fri": "09:30-12:00 13:00-16:00" },
    // Lunar holidays (Lunar New Year, Buddha's Birthday, Tuen Ng, Mid-Autumn, Chung Yeung),
    // Ching Ming and their Sunday substitutes are gazetted by the HKSAR Government each year:
    // these lists MUST BE EXTENDED EVERY YEAR from HKEX's trading calendar
    // (https://www.hkex.com.hk/Services/Trading-hours-and-Severe-Weather-Arrangements/Trading-Hours/Securities-Market).
    // A year with no list is treated as open every weekday; never fill a year in by guesswork.
    listedYears: {
      // Source: HKSAR Government Gazette, general holidays for 2025, and HKEX's 2025 trading
      // calendar (half days: Lunar New Year's Eve, Christmas Eve, New Year's Eve).
      2025: {
        closed: [
          "2025-01-01", // New Year's Day
          "2025-01-29", // Lunar New Year's Day
          "2025-01-30", // Second day of Lunar New Year
          "2025-01-31", // Third day of Lunar New Year
          "2025-04-04", // Ching Ming Festival
          "2025-04-18", // Good Friday
          "2025-04-21", // Easter Monday
          "2025-05-01", // Labour Day
          "2025-05-05", // Buddha's Birthday
          "2025-07-01", // HKSAR Establishment Day
          "2025-10-01", // National Day
          "2025-10-07", // Day following the Mid-Autumn Festival
          "2025-10-29", // Chung Yeung Festival
          "2025-12-25", // Christmas Day
          "2025-12-26", // First weekday after Christmas Day
        ],
        earlyCloses: { "2025-01-28": "12:00", "2025-12-24": "12:00", "2025-12-31": "12:00" },
      },
      // Source: HKSAR Government Gazette, general holidays for 2026, and HKEX's 2026 trading
      // calendar. Weekend holidays (4 Apr, 26 Sep, 26 Dec) are omitted.
      2026: {
        closed: [
          "2026-01-01", // New Year's Day
          "2026-02-17", // Lunar New Year's Day
          "2026-02-18", // Second day of Lunar New Year
          "2026-02-19", // Third day of Lunar New Year
          "2026-04-03", // Good Friday
          "2026-04-06", // Easter Monday
          "2026-04-07", // Day following Ching Ming (5 Apr, Sunday; 6 Apr is Easter Monday)
          "2026-05-01", // Labour Day
          "2026-05-25", // Day following Buddha's Birthday (24 May, Sunday)
          "2026-06-19", // Tuen Ng Festival
          "2026-07-01", // HKSAR Establishment Day
          "2026-10-01", // National Day
          "2026-10-19", // Day following Chung Yeung (18 Oct, Sunday)
          "2026-12-25", // Christmas Day
        ],
        earlyCloses: { "2026-02-16": "12:00", "2026-12-24": "12:00", "2026-12-31": "12:00" },
      },
    },
  },
  {
    id: "cme-globex",
    name: "CME Globex (metals and energy)",
    // CME states these hours in Chicago time (17:00–16:00 CT); New York and Chicago change
    // clocks on the same dates, so the New York form is the same instants.
    timeZone: "America/New_York",
    hours: "Sunday 18:00 to Friday 17:00, with a daily break 17:00–18:00",
    holidays: "Not modelled (exchange holiday schedules vary by product)",
    symbols: ["XAUUSD", "XAGUSD", "XCUUSD", "WTICOUSD", "NGASUSD"],
    week: { Sun: "18:00-24:00", "Mon-Thu": "00:00-17:00 18:00-24:00", Fri: "00:00-17:00" },
  },
  {
    id: "ice-brent",
    name: "ICE Futures Europe (Brent)",
    // ICE publishes Brent's hours as 01:00–23:00 London, which is 20:00–18:00 New York only
    // while both cities keep the same clock offset. ICE Futures Europe is a London exchange
    // and its hours are London time: in the weeks of March and October/November when New York
    // and London change clocks on different dates, Brent still opens at 01:00 London (21:00
    // or 19:00 New York) — brokers' schedules for those weeks show it unmoved in London time
    // while the CME's oil contracts move. So this calendar is in Europe/London; outside those
    // weeks it is exactly "20:00 Sunday to 18:00 Friday New York, break 18:00–20:00".
    timeZone: "Europe/London",
    hours: "Monday–Friday 01:00–23:00 (Sunday 20:00 to Friday 18:00 New York, break 18:00–20:00)",
    holidays: "Not modelled",
    symbols: ["BCOUSD"],
    week: { "Mon-Fri": "01:00-23:00" },
  },
  {
    id: "cbot-grains",
    name: "CBOT grains (CME Globex)",
    timeZone: "America/Chicago",
    hours: "Sunday–Friday 19:00–07:45 and Monday–Friday 08:30–13:20",
    holidays: "Not modelled",
    symbols: ["CORNUSD", "WHEATUSD"],
    week: {
      Sun: "19:00-24:00",
      "Mon-Thu": "00:00-07:45 08:30-13:20 19:00-24:00",
      Fri: "00:00-07:45 08:30-13:20",
    },
  },
  {
    id: "crypto",
    name: "Crypto (continuous)",
    timeZone: "UTC",
    hours: "Always open",
    holidays: "None",
    symbols: [
      "BTCUSDT",
      "BTCUSD",
      "ETHUSDT",
      "LTCUSDT",
      "BNBUSDT",
      "XRPUSDT",
      "ADAUSDT",
      "DOGEUSDT",
    ],
    alwaysOpen: true,
  },
];

/** One calendar per venue, described for docs/README: id, name, time zone, hours as text, which symbols. */
export const tradingCalendars: readonly TradingCalendarDescription[] = calendarSpecs.map(
  ({ id, name, timeZone, hours, holidays, symbols }) => ({
    id,
    name,
    timeZone,
    hours,
    holidays,
    symbols,
  }),
);

// ---------------------------------------------------------------------------------------
// Civil dates: a "day" is the number of days since 1970-01-01 in a wall-clock calendar
// ---------------------------------------------------------------------------------------

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MINUTES_PER_DAY = 1440;

function dayOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** 1970-01-01 was a Thursday. */
function weekdayOf(day: number): Weekday {
  return (((day % 7) + 11) % 7) as Weekday;
}

function isWeekend(day: number): boolean {
  const weekday = weekdayOf(day);
  return weekday === 0 || weekday === 6;
}

function yearOf(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

function dayOfIso(iso: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) throw new Error(`Not an ISO date: ${iso}`);
  return dayOf(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** Easter Sunday of the Gregorian calendar (the anonymous Gregorian computus). */
export function easterSunday(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { month, day };
}

function dayOfRule(rule: DateRule, year: number): number {
  let day: number;
  if ("easter" in rule) {
    const easter = easterSunday(year);
    day = dayOf(year, easter.month, easter.day) + rule.easter;
  } else if ("weekday" in rule) {
    if (rule.nth === -1) {
      const last = dayOf(year, rule.month + 1, 1) - 1;
      day = last - ((weekdayOf(last) - rule.weekday + 7) % 7);
    } else {
      const first = dayOf(year, rule.month, 1);
      day = first + ((rule.weekday - weekdayOf(first) + 7) % 7) + (rule.nth - 1) * 7;
    }
  } else {
    day = dayOf(year, rule.month, rule.day);
  }
  return day + (rule.plusDays ?? 0);
}

function minutesOf(hhmm: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
  if (!(minutes >= 0 && minutes <= MINUTES_PER_DAY)) throw new Error(`Not a time: ${hhmm}`);
  return minutes;
}

// ---------------------------------------------------------------------------------------
// Time zones: one cached Intl.DateTimeFormat per zone, offsets cached per quarter hour
// ---------------------------------------------------------------------------------------

/**
 * Offsets are cached per UTC quarter hour: every zone used here changes its offset only at
 * whole hours UTC (every modern zone changes at a quarter-hour boundary), so one lookup
 * serves the whole quarter hour.
 */
const OFFSET_BUCKET_MS = 15 * MINUTE_MS;
const OFFSET_CACHE_LIMIT = 100_000;

class Zone {
  private readonly format: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  }

  /** Wall-clock time minus UTC at the instant `atMs`, in ms. */
  offsetAt(atMs: number): number {
    const bucket = Math.floor(atMs / OFFSET_BUCKET_MS);
    const cached = this.offsets.get(bucket);
    if (cached !== undefined) return cached;
    const instant = bucket * OFFSET_BUCKET_MS;
    const parts: Record<string, number> = {};
    for (const part of this.format.formatToParts(instant)) {
      if (part.type !== "literal") parts[part.type] = Number(part.value);
    }
    const wall = Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      (parts.hour ?? 0) % 24,
      parts.minute ?? 0,
      parts.second ?? 0,
    );
    const offset = wall - instant;
    if (this.offsets.size >= OFFSET_CACHE_LIMIT) this.offsets.clear();
    this.offsets.set(bucket, offset);
    return offset;
  }

  /** The instant the zone's clocks show `wallMs` (wall time written as if UTC). */
  instantOf(wallMs: number): number {
    const offset = this.offsetAt(wallMs - this.offsetAt(wallMs));
    const instant = wallMs - offset;
    const offsetThere = this.offsetAt(instant);
    if (offsetThere === offset) return instant;
    // The wall time does not exist (clocks jumped past it): take it as the same distance
    // past the jump, as Temporal's "compatible" disambiguation does.
    return Math.max(instant, wallMs - offsetThere);
  }
}

const zones = new Map<string, Zone>();

function zoneOf(timeZone: string): Zone {
  let zone = zones.get(timeZone);
  if (!zone) {
    zone = new Zone(timeZone);
    zones.set(timeZone, zone);
  }
  return zone;
}

// ---------------------------------------------------------------------------------------
// The engine
// ---------------------------------------------------------------------------------------

/** [open, close) in minutes after local midnight. */
type Interval = readonly [number, number];

const weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

function parseWeek(id: string, week: Readonly<Record<string, string>>): Interval[][] {
  const days: Interval[][] = [[], [], [], [], [], [], []];
  for (const [key, text] of Object.entries(week)) {
    const names = key.split("-");
    const from = weekdayNames.indexOf(names[0] ?? "");
    const to = weekdayNames.indexOf(names[1] ?? names[0] ?? "");
    if (names.length > 2 || from < 0 || to < from) {
      throw new Error(`Calendar ${id}: bad day range ${key}`);
    }
    const intervals = text.split(" ").map((range): Interval => {
      const [open = "", close = ""] = range.split("-");
      const interval: Interval = [minutesOf(open), minutesOf(close)];
      if (interval[0] >= interval[1]) throw new Error(`Calendar ${id}: empty interval ${range}`);
      return interval;
    });
    for (let day = from; day <= to; day++) days[day]?.push(...intervals);
  }
  for (const intervals of days) {
    intervals.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < intervals.length; i++) {
      if ((intervals[i]?.[0] ?? 0) < (intervals[i - 1]?.[1] ?? 0)) {
        throw new Error(`Calendar ${id}: overlapping sessions`);
      }
    }
  }
  return days;
}

/** How far ahead an opening is looked for (the longest real closure is a few days). */
const SEARCH_DAYS = 31;

/** Day → local minute the venue closes that day (0: closed all day). */
type SpecialDays = Map<number, number>;

class Calendar {
  readonly zone: Zone;
  private readonly week: Interval[][];
  private readonly specialDaysByYear = new Map<number, SpecialDays>();
  private readonly hasSpecialDays: boolean;

  constructor(readonly spec: CalendarSpec) {
    this.zone = zoneOf(spec.timeZone);
    this.week = parseWeek(spec.id, spec.week ?? {});
    this.hasSpecialDays = Boolean(
      spec.holidayRules?.length || spec.earlyCloseRules?.length || spec.listedYears,
    );
    for (const [year, listed] of Object.entries(spec.listedYears ?? {})) {
      const dates = [...listed.closed, ...Object.keys(listed.earlyCloses ?? {})];
      for (const iso of dates) {
        if (yearOf(dayOfIso(iso)) !== Number(year)) {
          throw new Error(`Calendar ${spec.id}: ${iso} listed under ${year}`);
        }
      }
    }
  }

  /** Observed holidays computed from the rules of `ruleYear` (may spill into the next year). */
  private holidaysOfRuleYear(ruleYear: number): number[] {
    const rules = (this.spec.holidayRules ?? []).filter(
      (rule) => rule.fromYear === undefined || ruleYear >= rule.fromYear,
    );
    const actual = rules
      .map((rule) => ({ rule, day: dayOfRule(rule.date, ruleYear) }))
      .sort((a, b) => a.day - b.day);
    const taken = new Set(actual.filter(({ day }) => !isWeekend(day)).map(({ day }) => day));
    for (const { rule, day } of actual) {
      if (!isWeekend(day)) continue;
      const saturday = weekdayOf(day) === 6;
      switch (rule.observed ?? "none") {
        case "us":
          taken.add(saturday ? day - 1 : day + 1);
          break;
        case "us-sunday-only":
          if (!saturday) taken.add(day + 1);
          break;
        case "substitute": {
          let substitute = day + 1;
          while (isWeekend(substitute) || taken.has(substitute)) substitute++;
          taken.add(substitute);
          break;
        }
        case "none":
          break;
      }
    }
    return [...taken];
  }

  private specialDays(year: number): SpecialDays {
    let special = this.specialDaysByYear.get(year);
    if (special) return special;
    special = new Map();
    for (const ruleYear of [year - 1, year, year + 1]) {
      for (const day of this.holidaysOfRuleYear(ruleYear)) {
        if (yearOf(day) === year) special.set(day, 0);
      }
    }
    const listed = this.spec.listedYears?.[year];
    for (const iso of listed?.closed ?? []) special.set(dayOfIso(iso), 0);
    const earlyCloses: Array<[number, number]> = [
      ...(this.spec.earlyCloseRules ?? []).map((rule): [number, number] => [
        dayOfRule(rule.date, year),
        minutesOf(rule.close),
      ]),
      ...Object.entries(listed?.earlyCloses ?? {}).map(([iso, close]): [number, number] => [
        dayOfIso(iso),
        minutesOf(close),
      ]),
    ];
    for (const [day, close] of earlyCloses) {
      // A holiday wins over an early close; an early close on a weekend changes nothing.
      if (isWeekend(day) || special.get(day) === 0) continue;
      special.set(day, Math.min(close, special.get(day) ?? MINUTES_PER_DAY));
    }
    this.specialDaysByYear.set(year, special);
    return special;
  }

  /** The day's sessions in local minutes from the weekly pattern alone. */
  regularSessionsOn(day: number): readonly Interval[] {
    return this.week[weekdayOf(day)] ?? [];
  }

  /** The day's sessions in local minutes, after holidays and early closes. */
  sessionsOn(day: number): readonly Interval[] {
    const regular = this.regularSessionsOn(day);
    if (regular.length === 0 || !this.hasSpecialDays) return regular;
    const close = this.specialDays(yearOf(day)).get(day);
    if (close === undefined) return regular;
    return regular
      .filter(([open]) => open < close)
      .map(([open, end]): Interval => [open, Math.min(end, close)]);
  }

  /** Wall time (ms) where the session ending at `end` on `day` really ends, across midnights. */
  private sessionEndWall(day: number, end: number): number {
    let endDay = day;
    let endMinute = end;
    for (let guard = 0; endMinute === MINUTES_PER_DAY && guard < 366; guard++) {
      const next = this.sessionsOn(endDay + 1)[0];
      if (next?.[0] !== 0) break;
      endDay += 1;
      endMinute = next[1];
    }
    return endDay * DAY_MS + endMinute * MINUTE_MS;
  }

  sessionAt(atMs: number): MarketSession {
    if (this.spec.alwaysOpen) return { open: true, nextOpenAtMs: null, closesAtMs: null };
    const wall = atMs + this.zone.offsetAt(atMs);
    const today = Math.floor(wall / DAY_MS);
    for (let day = today; day <= today + SEARCH_DAYS; day++) {
      for (const [open, end] of this.sessionsOn(day)) {
        const openWall = day * DAY_MS + open * MINUTE_MS;
        if (day * DAY_MS + end * MINUTE_MS <= wall) continue;
        if (openWall <= wall) {
          const closesAtMs = this.zone.instantOf(this.sessionEndWall(day, end));
          return { open: true, nextOpenAtMs: null, closesAtMs };
        }
        return { open: false, nextOpenAtMs: this.zone.instantOf(openWall), closesAtMs: null };
      }
    }
    return { open: false, nextOpenAtMs: null, closesAtMs: null };
  }
}

const calendarsBySymbol: ReadonlyMap<string, Calendar> = (() => {
  const bySymbol = new Map<string, Calendar>();
  for (const spec of calendarSpecs) {
    const calendar = new Calendar(spec);
    for (const symbol of spec.symbols) {
      if (bySymbol.has(symbol)) throw new Error(`${symbol} is in two trading calendars`);
      bySymbol.set(symbol, calendar);
    }
  }
  return bySymbol;
})();

/** The session of a catalogue symbol (domain/src/catalogue.ts) at an instant. Unknown symbol: throw. */
export function marketSessionAt(symbol: string, atMs: number): MarketSession {
  const calendar = calendarsBySymbol.get(symbol);
  if (!calendar) throw new Error(`No trading calendar for symbol ${symbol}`);
  if (!Number.isFinite(atMs)) throw new Error(`Not an instant: ${atMs}`);
  return calendar.sessionAt(atMs);
}

/** The calendar a symbol trades on, as described in `tradingCalendars` (undefined: unknown). */
export function tradingCalendarOf(symbol: string): TradingCalendarDescription | undefined {
  const id = calendarsBySymbol.get(symbol)?.spec.id;
  return tradingCalendars.find((calendar) => calendar.id === id);
}

/**
 * "2 h 14 min", "45 min", "1 d 3 h", "less than a minute" — the countdown in "Market closed —
 * opens in 2 h 14 min". Rounds minutes up (never says "0 min"); from one day on, whole hours,
 * rounded up too, so the countdown never announces an opening earlier than it is.
 */
export function formatOpensIn(durationMs: number): string {
  if (!(durationMs >= MINUTE_MS)) return "less than a minute";
  const minutes = Math.ceil(durationMs / MINUTE_MS);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < MINUTES_PER_DAY) {
    const rest = minutes % 60;
    return rest === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${rest} min`;
  }
  const hours = Math.ceil(minutes / 60);
  const restHours = hours % 24;
  const days = Math.floor(hours / 24);
  return restHours === 0 ? `${days} d` : `${days} d ${restHours} h`;
}

/**
 * The weekdays of `year` on which a symbol's venue is closed, or closes early (local "HH:MM"),
 * by ISO date: what the rules and lists above produce, for tests and docs.
 */
export function tradingExceptions(
  symbol: string,
  year: number,
): { closed: string[]; earlyCloses: Record<string, string> } {
  const calendar = calendarsBySymbol.get(symbol);
  if (!calendar) throw new Error(`No trading calendar for symbol ${symbol}`);
  const closed: string[] = [];
  const earlyCloses: Record<string, string> = {};
  for (let day = dayOf(year, 1, 1); day < dayOf(year + 1, 1, 1); day++) {
    const regular = calendar.regularSessionsOn(day);
    const sessions = calendar.sessionsOn(day);
    const iso = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (regular.length > 0 && sessions.length === 0) closed.push(iso);
    const regularEnd = regular.at(-1)?.[1];
    const end = sessions.at(-1)?.[1];
    if (end !== undefined && regularEnd !== undefined && end < regularEnd) {
      earlyCloses[iso] =
        `${String(Math.floor(end / 60)).padStart(2, "0")}:${String(end % 60).padStart(2, "0")}`;
    }
  }
  return { closed, earlyCloses };
}
