import { mkdirSync } from "node:fs";
import { findAsset } from "@tp/domain/catalogue";
import { journeyOn } from "@tp/server/testing/fresh-database";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type BrowserSession,
  describeBrowser,
  launchBrowser,
  openSession,
  type Viewport,
  viewports,
} from "../src/browser.ts";
import {
  dismissToasts,
  expectNoHorizontalOverflow,
  expectPath,
  expectVisible,
} from "../src/pages/common.ts";
import { DashboardPage } from "../src/pages/dashboard-page.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import {
  api,
  newTrader,
  registerByApi,
  startLiveBrowserPlatform,
  type Trader,
} from "../src/platform.ts";
import { screenshot, screenshots_dir } from "../src/screenshots.ts";

const chart_types = [
  ["candles", "Candles"],
  ["hollow", "Hollow candles"],
  ["bars", "OHLC bars"],
  ["line", "Line"],
  ["area", "Area"],
] as const;

interface ApiCandle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * expect.poll with the suite's element timeout: the chart builds 300 ms after a change and
 * then reads GET /candles, which on a busy machine takes longer than vitest's 1 s default.
 */
function expectSoon<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 15_000 });
}

/** A price as the chart's legend writes it (trade-format.ts formatPrice). */
function asLegend(symbol: string, price: number): string {
  const precision = findAsset(symbol)?.precision ?? 2;
  return price.toLocaleString("en-US", {
    minimumFractionDigits: precision,
    maximumFractionDigits: precision,
  });
}

/** The chart's pieces on the dashboard: the canvas host, its legend and its controls. */
class ChartView {
  readonly host: Locator;
  readonly legend: Locator;
  readonly type: Locator;
  readonly indicatorsButton: Locator;

  constructor(readonly page: Page) {
    this.host = page.getByTestId("price-chart");
    this.legend = page.getByTestId("chart-legend");
    this.type = page.getByTestId("chart-type");
    this.indicatorsButton = page.getByRole("button", { name: /^Indicators/ });
  }

  interval(name: string): Locator {
    return this.page.getByRole("group", { name: "Bar interval" }).getByRole("button", { name });
  }

  indicator(name: RegExp): Locator {
    return this.page.getByRole("checkbox", { name });
  }

  /** Waits for the drawn chart to have `series` series in `panes` panes. */
  async expectShape(series: number, panes: number): Promise<void> {
    await expectSoon(() => this.host.getAttribute("data-series-count")).toBe(String(series));
    await expectSoon(() => this.host.getAttribute("data-pane-count")).toBe(String(panes));
  }

  /** The bar the legend shows: its start (epoch seconds) and its four prices as written. */
  async legendBar(): Promise<{ time: number; ohlc: string[] }> {
    const time = Number(await this.legend.getAttribute("data-time"));
    const ohlc: string[] = [];
    for (const field of ["open", "high", "low", "close"]) {
      const text = (await this.legend.getByTestId(`chart-legend-${field}`).textContent()) ?? "";
      ohlc.push(text.replace(/^[OHLC]\s*/, "").trim());
    }
    return { time, ohlc };
  }

  /** Moves the mouse over the chart, `fraction` of the way across, and leaves it there. */
  async hover(fraction: number): Promise<void> {
    const box = await this.host.boundingBox();
    if (!box) throw new Error("the chart has no box");
    await this.page.mouse.move(box.x + box.width * fraction, box.y + box.height * 0.35);
  }
}

/**
 * Issue 11 item 2, "A chart traders expect", on the real platform with 25 h of history:
 * the chart draws candles, the legend reads the bar under the cursor as GET /candles has
 * it, the types, intervals and indicators switch what is drawn, and the choices survive a
 * reload. Screenshots of every type and of the indicators at 1280 and 375 px, both themes.
 */
describeBrowser.each(journeyOn("postgres"))("price chart in Chromium on %s", (kind) => {
  let platform: TestPlatform;
  let browser: Browser;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startLiveBrowserPlatform(kind), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  async function signedIn(viewport: Viewport, theme: "light" | "dark"): Promise<BrowserSession> {
    const trader: Trader = newTrader({ first_name: "Chart", last_name: "Reader" });
    await registerByApi(platform, trader);
    const session = await openSession(browser, platform.baseUrl, viewport);
    await session.context.addInitScript((stored) => {
      // The theme as a returning trader left it, before the app reads it.
      if (window.localStorage.getItem("theme") === null) {
        window.localStorage.setItem("theme", stored);
      }
    }, theme);
    await session.context.addInitScript(() => {
      // Keeps the page's sockets within reach, so a test can drop the live stream's.
      const Native = window.WebSocket;
      const sockets: WebSocket[] = [];
      (window as unknown as { openedSockets: WebSocket[] }).openedSockets = sockets;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          sockets.push(this);
        }
      };
    });
    const signIn = new SignInPage(session.page);
    await signIn.open();
    await signIn.signIn(trader.email, trader.password);
    await expectPath(session.page, "/user/dashboard");
    await expectVisible(new DashboardPage(session.page).call);
    await dismissToasts(session.page);
    return session;
  }

  async function withSession(
    session: BrowserSession,
    name: string,
    run: (page: Page) => Promise<void>,
  ): Promise<void> {
    try {
      await run(session.page);
      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(session.page, `failure-chart-${name}`, { fullPage: false }).catch(
        () => undefined,
      );
      throw error;
    } finally {
      await session.close();
    }
  }

  /**
   * Hovers the chart's middle, away from the newest bar, and checks the legend shows that
   * bar as GET /candles has it; then the legend goes back to the newest bar.
   */
  async function expectHoveredBarFromApi(
    chart: ChartView,
    symbol: string,
    interval: string,
  ): Promise<void> {
    const reply = await api(platform, "GET", `/candles?symbol=${symbol}&interval=${interval}`);
    expect(reply.status).toBe(200);
    const candles = reply.body.data.candles as ApiCandle[];
    expect(candles.length, `${interval} candles`).toBeGreaterThan(20);
    await chart.page.mouse.move(0, 0);
    const newest = await chart.legendBar();
    await chart.hover(0.4);
    await expectSoon(async () => (await chart.legendBar()).time).not.toBe(newest.time);
    const hovered = await chart.legendBar();
    const candle = candles.find((one) => one.time === hovered.time * 1000);
    expect(candle, `GET /candles has the hovered ${interval} bar ${hovered.time}`).toBeDefined();
    if (!candle) return;
    expect(hovered.ohlc).toEqual(
      [candle.open, candle.high, candle.low, candle.close].map((price) => asLegend(symbol, price)),
    );
    await chart.page.mouse.move(0, 0);
    await expectSoon(async () => (await chart.legendBar()).time).toBeGreaterThanOrEqual(
      newest.time,
    );
  }

  /**
   * The chart's section only: the picture to look at. Cut from a whole-page picture, where
   * the sticky top bar stays at the top of the page instead of covering the chart's header.
   */
  async function chartShot(page: Page, name: string): Promise<void> {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    const section = page.locator("section[aria-labelledby='price-chart-title']");
    const clip = await section.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return {
        x: box.left + window.scrollX,
        y: box.top + window.scrollY,
        width: box.width,
        height: box.height,
      };
    });
    mkdirSync(screenshots_dir, { recursive: true });
    await page.screenshot({
      path: `${screenshots_dir}${name}.png`,
      fullPage: true,
      clip,
      animations: "disabled",
    });
  }

  it("draws candles whose legend matches GET /candles, switches type, interval and indicators, and remembers them", async () => {
    await withSession(await signedIn(viewports.desktop, "light"), "desktop", async (page) => {
      const chart = new ChartView(page);
      const symbol = (await page.getByTestId("chart-symbol").textContent())?.trim() ?? "";
      expect(findAsset(symbol), `the chart's title ${symbol} names an asset`).toBeDefined();
      await chart.expectShape(1, 1);
      expect(await chart.host.getAttribute("data-chart-type")).toBe("candles");
      expect(await chart.host.getAttribute("data-chart-interval")).toBe("1m");

      // The bar under the cursor is the server's candle of that minute, price for price.
      await expectVisible(chart.legend);
      await expectHoveredBarFromApi(chart, symbol, "1m");

      for (const [type, label] of chart_types) {
        await chart.type.selectOption({ label });
        await expectSoon(() => chart.host.getAttribute("data-chart-type")).toBe(type);
        await chart.expectShape(1, 1);
        await chartShot(page, `chart-1280-light-${type}`);
      }
      await chart.type.selectOption({ label: "Candles" });

      // Another interval: the bars are that interval's (their starts fall on its grid).
      await chart.interval("1 second").click();
      await expectSoon(() => chart.host.getAttribute("data-chart-interval")).toBe("1s");
      await chart.expectShape(1, 1);
      await expectVisible(chart.legend);
      await chart.interval("1 minute").click();
      await expectSoon(() => chart.host.getAttribute("data-chart-interval")).toBe("1m");
      await chart.expectShape(1, 1);
      await expectSoon(async () => (await chart.legendBar()).time % 60).toBe(0);
      // An interval the server aggregates from the minutes: hour bars, on the hour.
      await chart.interval("1 hour").click();
      await expectSoon(() => chart.host.getAttribute("data-chart-interval")).toBe("1h");
      await chart.expectShape(1, 1);
      await expectHoveredBarFromApi(chart, symbol, "1h");
      expect((await chart.legendBar()).time % 3600).toBe(0);
      await chartShot(page, "chart-1280-light-1h");
      // Day bars start at 00:00 UTC, like the server's.
      await chart.interval("1 day").click();
      await expectSoon(() => chart.host.getAttribute("data-chart-interval")).toBe("1d");
      await chart.expectShape(1, 1);
      expect((await chart.legendBar()).time % 86_400).toBe(0);
      await chartShot(page, "chart-1280-light-1d");
      await chart.interval("1 minute").click();
      await expectSoon(() => chart.host.getAttribute("data-chart-interval")).toBe("1m");
      await chart.expectShape(1, 1);

      // Indicators: each one adds its lines; RSI gets its own pane below the price.
      await chart.indicatorsButton.click();
      await chart.indicator(/^Moving average/).check();
      await chart.expectShape(2, 1);
      await chart.indicator(/^Bollinger/).check();
      await chart.expectShape(5, 1);
      await chart.indicator(/^Relative strength/).check();
      await chart.expectShape(6, 2);
      const period = page.getByRole("spinbutton", { name: "Moving average (SMA) period" });
      await period.fill("5");
      await expectSoon(() =>
        chart.legend.getByTestId("chart-legend-sma").getAttribute("data-label"),
      ).toBe("SMA 5");
      const rsiRow = chart.legend.getByTestId("chart-legend-rsi");
      expect(await rsiRow.getAttribute("data-label")).toBe("RSI 14");
      const rsi = Number(await rsiRow.locator("[data-value]").getAttribute("data-value"));
      expect(rsi, "the RSI of the newest bar").toBeGreaterThan(0);
      expect(rsi).toBeLessThanOrEqual(100);
      await chartShot(page, "chart-1280-light-indicators-menu");
      await page.keyboard.press("Escape");
      await expectSoon(() => chart.indicatorsButton.getAttribute("aria-expanded")).toBe("false");
      await chart.type.selectOption({ label: "Hollow candles" });
      await chart.expectShape(6, 2);
      await chartShot(page, "chart-1280-light-indicators");

      // Everything chosen is there again after a reload.
      await page.reload();
      await chart.expectShape(6, 2);
      expect(await chart.type.inputValue()).toBe("hollow");
      expect(await chart.interval("1 minute").getAttribute("aria-pressed")).toBe("true");
      await expectSoon(() =>
        chart.legend.getByTestId("chart-legend-sma").getAttribute("data-label"),
      ).toBe("SMA 5");

      // Switching an indicator off takes its lines (and the RSI its pane) away.
      await chart.indicatorsButton.click();
      await chart.indicator(/^Relative strength/).uncheck();
      await chart.expectShape(5, 1);
    });
  });

  it("after the live socket drops and comes back, reads the candles it missed from its newest bar, without reloading", async () => {
    await withSession(await signedIn(viewports.desktop, "light"), "resync", async (page) => {
      const chart = new ChartView(page);
      await chart.expectShape(1, 1);
      await expectVisible(page.getByRole("status", { name: /^Connection: Online/ }));
      const before = await chart.legendBar();
      const candleReads: URL[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.pathname === "/api/v1/candles") candleReads.push(url);
      });
      const gapFill = page.waitForResponse(
        (response) =>
          response.url().includes("/api/v1/candles") && response.url().includes("from="),
        { timeout: 20_000 },
      );
      await page.evaluate(() => {
        const sockets = (window as unknown as { openedSockets: WebSocket[] }).openedSockets;
        sockets[sockets.length - 1]?.close();
      });
      const reply = await gapFill;
      expect(reply.status()).toBe(200);
      const from = Date.parse(new URL(reply.url()).searchParams.get("from") ?? "");
      // From the newest bar the chart held: a minute's start, no older than the one shown.
      expect(from % 60_000).toBe(0);
      expect(from).toBeGreaterThanOrEqual(before.time * 1000);
      await expectVisible(page.getByRole("status", { name: /^Connection: Online/ }));
      // Merged into the chart as drawn: no read of the whole history again.
      expect(candleReads.filter((url) => !url.searchParams.has("from"))).toEqual([]);
      await chart.expectShape(1, 1);
      await expectSoon(async () => (await chart.legendBar()).time).toBeGreaterThanOrEqual(
        before.time,
      );
    });
  });

  for (const [viewport, width] of [
    [viewports.desktop, 1280],
    [viewports.mobile, 375],
  ] as const) {
    for (const theme of ["light", "dark"] as const) {
      if (width === 1280 && theme === "light") continue; // shot in the journey above
      it(`every type and the indicators at ${width} px, ${theme}`, async () => {
        await withSession(await signedIn(viewport, theme), `${width}-${theme}`, async (page) => {
          const chart = new ChartView(page);
          await chart.expectShape(1, 1);
          expect(await chart.host.getAttribute("data-chart-theme")).toBe(theme);
          await expectNoHorizontalOverflow(page);
          if (width === 375) {
            // The interval buttons become a list on a phone; the list switches the bars too.
            const intervals = page.getByRole("combobox", { name: "Bar interval" });
            await intervals.selectOption("1s");
            await expectSoon(() => chart.host.getAttribute("data-chart-interval")).toBe("1s");
            await chart.expectShape(1, 1);
            await intervals.selectOption("1m");
            await expectSoon(() => chart.host.getAttribute("data-chart-interval")).toBe("1m");
          }
          for (const [type, label] of chart_types) {
            await chart.type.selectOption({ label });
            await expectSoon(() => chart.host.getAttribute("data-chart-type")).toBe(type);
            await chartShot(page, `chart-${width}-${theme}-${type}`);
          }
          await chart.type.selectOption({ label: "Candles" });
          await chart.indicatorsButton.click();
          await chart.indicator(/^Exponential/).check();
          await chart.indicator(/^Bollinger/).check();
          await chart.indicator(/^Relative strength/).check();
          await chart.expectShape(6, 2);
          await expectNoHorizontalOverflow(page);
          await chartShot(page, `chart-${width}-${theme}-indicators-menu`);
          await page.keyboard.press("Escape");
          await chartShot(page, `chart-${width}-${theme}-indicators`);
        });
      });
    }
  }
});
