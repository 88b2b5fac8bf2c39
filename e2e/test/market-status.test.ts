import { assetCatalogue, optionTypeLabels, optionTypes } from "@tp/domain/catalogue";
import { type ManualClock, systemClock } from "@tp/server/clock";
import { SimulatedFeed } from "@tp/server/feeds/simulated-feed";
import { journeyOn } from "@tp/server/testing/fresh-database";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import WebSocket from "ws";
import {
  type BrowserSession,
  describeBrowser,
  launchBrowser,
  openSession,
  type Viewport,
  viewports,
} from "../src/browser.ts";
import { signInByApi, staff, staff_env } from "../src/funding.ts";
import {
  dismissToasts,
  expectNoHorizontalOverflow,
  expectPath,
  expectToast,
  expectVisible,
  toasts,
} from "../src/pages/common.ts";
import { DashboardPage } from "../src/pages/dashboard-page.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import {
  type ApiReply,
  api,
  newTrader,
  registerByApi,
  startProxiedBrowserPlatform,
  type Trader,
} from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

/** A 30-second trade settles about 2 s after expiry; the wait leaves room for a slow box. */
const settlement_wait_ms = 60_000;
const refund_rule =
  "When the price feed was down across a trade's expiry, the stake is refunded in full.";

/** Opens /api/v1/stream from Node with `origin`; resolves with the upgrade's status. */
function streamUpgradeStatus(baseUrl: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/api/v1/stream`, {
      headers: { origin },
    });
    socket.once("open", () => {
      socket.close();
      resolve(101);
    });
    socket.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once("error", reject);
  });
}

const themes = ["light", "dark"] as const;

/**
 * Issue 11, items 5 and 6 in the browser: the page opened at 127.0.0.1 while PUBLIC_URL
 * names localhost (the first address the start-up log prints) gets its live socket and sees a
 * trade settle; a foreign Origin is still refused; the public market status page and the
 * back office's price feeds page show the platform's real state.
 */
describeBrowser.each(journeyOn("pglite"))(
  "same-origin stream, market status and price feeds in Chromium on %s",
  (kind) => {
    let platform: TestPlatform;
    let browser: Browser;
    /**
     * The market status test's practice Put, placed as the platform starts: its 30 seconds run
     * out while the first test waits for its own trade, instead of after it.
     */
    let refunded: { trader: Trader; token: string; placed: ApiReply };

    beforeAll(async () => {
      [platform, browser] = await Promise.all([
        startProxiedBrowserPlatform(kind, {
          env: staff_env,
          publicHost: "localhost",
          // Never advanced: trades really expire and settle on the simulator's prices.
          clock: systemClock as unknown as ManualClock,
          feeds: [new SimulatedFeed({ clock: systemClock, seed: 3 })],
        }),
        launchBrowser(),
      ]);
      const trader = newTrader();
      await registerByApi(platform, trader);
      const token = await signInByApi(platform, trader.email, trader.password);
      const placed = await api(platform, "POST", "/place-trade", {
        token,
        body: { asset: "EURUSD", type: "put", amount: 12.5, duration: 30, is_practice: true },
      });
      refunded = { trader, token, placed };
    });
    afterAll(async () => {
      await browser?.close();
      await platform?.close();
    });

    /** A session at `viewport` (and theme), its problems checked; a failure leaves a picture. */
    async function withSession(
      name: string,
      viewport: Viewport,
      theme: (typeof themes)[number],
      run: (page: Page, session: BrowserSession) => Promise<void>,
    ): Promise<void> {
      const session = await openSession(browser, platform.baseUrl, viewport);
      await session.context.addInitScript((value) => {
        window.localStorage.setItem("theme", value);
      }, theme);
      try {
        await run(session.page, session);
        expect(session.problems).toEqual([]);
      } catch (error) {
        await screenshot(session.page, `failure-market-status-${name}`, { fullPage: false }).catch(
          () => undefined,
        );
        throw error;
      } finally {
        await session.close();
      }
    }

    it("opened at 127.0.0.1 while PUBLIC_URL is localhost: the stream is Online and a practice trade settles live", async () => {
      expect(platform.context.config.PUBLIC_URL).toMatch(/^http:\/\/localhost:\d+$/);
      expect(new URL(platform.baseUrl).hostname).toBe("127.0.0.1");
      const trader = newTrader({ first_name: "Sam", last_name: "Origin" });
      await registerByApi(platform, trader);
      await withSession("same-origin", viewports.desktop, "light", async (page) => {
        const failedSockets: string[] = [];
        page.on("websocket", (socket) => {
          socket.on("socketerror", (error) => failedSockets.push(error));
        });
        await page.goto("/account/sign-in");
        await new SignInPage(page).signIn(trader.email, trader.password);
        await expectPath(page, "/user/dashboard");
        const dashboard = new DashboardPage(page);
        await expectVisible(dashboard.call);
        await expectVisible(page.getByRole("status", { name: /^Connection: Online/ }));

        await dashboard.account("Practice Account").click();
        await dashboard.fillTrade({ amount: "10", expiration: "30 Seconds" });
        await dashboard.call.click();
        const confirm = page.getByRole("dialog", { name: "Confirm Call trade" });
        await confirm.getByRole("button", { name: "Confirm Trade" }).click();
        await expectToast(page, "Trade placed successfully");
        // Settled over the socket: the result toast arrives without a reload.
        const result = toasts(page).getByText(/^Trade (won|lost|tie): /);
        await result.first().waitFor({ state: "visible", timeout: settlement_wait_ms });
        await expectVisible(page.getByRole("status", { name: /^Connection: Online/ }));
        expect(failedSockets).toEqual([]);
      });
    });

    it("a socket from a foreign Origin is still refused with 403; the page's own address and PUBLIC_URL are accepted", async () => {
      const port = new URL(platform.baseUrl).port;
      expect(await streamUpgradeStatus(platform.baseUrl, "http://evil.example")).toBe(403);
      expect(
        await streamUpgradeStatus(platform.baseUrl, `http://127.0.0.1:${Number(port) + 1}`),
      ).toBe(403);
      expect(await streamUpgradeStatus(platform.baseUrl, `http://127.0.0.1:${port}`)).toBe(101);
      expect(await streamUpgradeStatus(platform.baseUrl, `http://localhost:${port}`)).toBe(101);
    });

    it("the market status page (footer link, empty state, then halts with refunded trades) and the price feeds page, at 1280 and 375 px, light and dark", async () => {
      // Before any halt: the empty state, reached from the footer.
      await withSession("status-empty", viewports.desktop, "light", async (page) => {
        await page.goto("/");
        await page.getByRole("contentinfo").getByRole("link", { name: "Market status" }).click();
        await expectPath(page, "/market-status");
        await expectVisible(page.getByRole("heading", { name: "Market status", level: 1 }));
        await expectVisible(page.getByText("No halts recorded"));
        await expectVisible(page.getByText(refund_rule));
      });

      // A trade placed (as the platform started) and settled live; the feed guard (the lead's
      // part of issue 11) records halts and the refund reason; until it lands here, the rows it
      // writes are staged.
      const { trader, token, placed } = refunded;
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      const tradeId = placed.body.data.trade.id as number;
      await expect
        .poll(
          async () =>
            (await api(platform, "GET", `/trades/${tradeId}`, { token })).body.data.trade.status,
          { timeout: settlement_wait_ms, interval: 1_000 },
        )
        .not.toBe("open");
      const expiresAtMs = Date.parse(placed.body.data.trade.expires_at);
      await platform.database.query(
        "UPDATE trades SET refund_reason = 'feed_down', settlement_note = $2 WHERE id = $1",
        [tradeId, "The price feed was down across the expiry; the stake was refunded in full."],
      );
      await platform.database.query(
        `INSERT INTO feed_halts (symbol, source, started_at, ended_at) VALUES
           ('BTCUSDT', 'simulated', $3, $4),
           ('EURUSD', 'simulated', $1, $2)`,
        [
          new Date(expiresAtMs - 1_500),
          new Date(expiresAtMs + 2_500),
          new Date(expiresAtMs - 3_600_000),
          new Date(expiresAtMs - 3_540_000),
        ],
      );

      for (const [size, viewport] of [
        ["1280", viewports.desktop],
        ["375", viewports.mobile],
      ] as const) {
        for (const theme of themes) {
          await withSession(`status-${size}-${theme}`, viewport, theme, async (page) => {
            await page.goto("/market-status");
            for (const type of optionTypes) {
              await expectVisible(page.getByRole("heading", { name: optionTypeLabels[type] }));
            }
            const eurusd = page
              .getByRole("region", { name: "Forex" })
              .getByRole("listitem")
              .filter({ hasText: "EURUSD" });
            await expectVisible(eurusd.getByText("Open", { exact: true }));
            await expectVisible(page.getByText("Simulated prices."));
            const halt = page.getByRole("article").filter({ hasText: "EUR/USD" });
            await expectVisible(halt);
            await expectVisible(halt.getByText("Lasted 4 s"));
            const row = halt.getByRole("listitem").filter({ hasText: `Trade #${tradeId}` });
            await expectVisible(row.getByText(`Trade #${tradeId} · Put · Practice`));
            await expectVisible(row.getByText("$12.50 refunded"));
            await expectVisible(
              page
                .getByRole("article")
                .filter({ hasText: "Bitcoin" })
                .getByText("No trade expired during this halt, so none was refunded."),
            );
            // Public: nothing names the trader.
            expect(await page.content()).not.toContain(trader.email);
            await expectNoHorizontalOverflow(page);
            await dismissToasts(page);
            await screenshot(page, `market-status-${size}-${theme}`);
          });

          await withSession(`feeds-${size}-${theme}`, viewport, theme, async (page) => {
            await page.goto("/admin/feeds");
            await expectPath(page, "/account/sign-in");
            await new SignInPage(page).signInThroughSecondFactor(
              platform,
              staff.email,
              staff.password,
            );
            await expectPath(page, "/admin/feeds");
            await expectVisible(page.getByRole("heading", { name: "Price feeds", level: 1 }));
            await expectVisible(page.getByText("In-process event bus (one server)"));
            await expectVisible(page.getByText("Connected", { exact: true }));
            await expectVisible(page.getByText(/ingested by this server/));
            const table = page.getByRole("table", { name: "Every asset's feed state" });
            await expect.poll(() => table.getByRole("row").count()).toBe(41);
            const eurusd = table.getByRole("row").filter({ hasText: "EURUSD" });
            await expectVisible(eurusd.getByText("Open", { exact: true }));
            await expectVisible(eurusd.getByText(/^\d+\.\d s$/).first());
            // Refreshed every few seconds: the time of the last tick moves.
            const ageCell = eurusd.getByRole("cell").nth(3); // Last tick
            const firstAge = await ageCell.textContent();
            await expect.poll(() => ageCell.textContent(), { timeout: 10_000 }).not.toBe(firstAge);
            await expectNoHorizontalOverflow(page);
            await dismissToasts(page);
            await screenshot(page, `admin-feeds-${size}-${theme}`);
          });
        }
      }
    });

    it("a halted market (its feed quiet past the entry limit) on both pages: the public badge and the back office's red age", async () => {
      // Its own platform on a manual clock with no feed: every price is one this test offers,
      // so which assets are stale is decided here, and the pictures do not move.
      const still = await startProxiedBrowserPlatform(kind, { env: staff_env });
      try {
        const startMs = still.clock.now().getTime();
        const offer = (symbol: string) =>
          still.context.marketData.offer({
            symbol,
            price: 100,
            at: still.clock.now().getTime(),
            source: "simulated",
          });
        // Crypto trades around the clock, so a quiet crypto feed is a halt, not a close.
        offer("ETHUSDT");
        still.clock.advance(30_000);
        for (const asset of assetCatalogue) {
          if (asset.symbol !== "ETHUSDT" && asset.symbol !== "DOGEUSDT") offer(asset.symbol);
        }
        await new Promise((resolve) => setImmediate(resolve));
        expect(still.clock.now().getTime() - startMs).toBe(30_000);

        const open = (viewport: Viewport, theme: (typeof themes)[number]) =>
          openSession(browser, still.baseUrl, viewport).then(async (session) => {
            await session.context.addInitScript((value) => {
              window.localStorage.setItem("theme", value);
            }, theme);
            return session;
          });
        for (const [size, viewport, theme] of [
          ["1280", viewports.desktop, "light"],
          ["375", viewports.mobile, "dark"],
        ] as const) {
          const publicSession = await open(viewport, theme);
          try {
            const page = publicSession.page;
            await page.goto("/market-status");
            const crypto = page.getByRole("region", { name: "Crypto" });
            for (const symbol of ["ETHUSDT", "DOGEUSDT"]) {
              await expectVisible(
                crypto
                  .getByRole("listitem")
                  .filter({ hasText: symbol })
                  .getByText("Prices delayed — trading paused"),
              );
            }
            await expectVisible(
              crypto.getByRole("listitem").filter({ hasText: "BTCUSDT" }).getByText("Open"),
            );
            await expectNoHorizontalOverflow(page);
            await dismissToasts(page);
            await screenshot(page, `market-status-halted-${size}-${theme}`);
            expect(publicSession.problems).toEqual([]);
          } finally {
            await publicSession.close();
          }

          const staffSession = await open(viewport, theme);
          try {
            const page = staffSession.page;
            await page.goto("/admin/feeds");
            await new SignInPage(page).signInThroughSecondFactor(
              still,
              staff.email,
              staff.password,
            );
            await expectPath(page, "/admin/feeds");
            await expectVisible(page.getByText("2 assets are halted", { exact: false }));
            const table = page.getByRole("table", { name: "Every asset's feed state" });
            const eth = table.getByRole("row").filter({ hasText: "ETHUSDT" });
            await expectVisible(eth.getByText("Halted", { exact: true }));
            const ethAge = eth.getByText(/^30 s/);
            await expectVisible(ethAge);
            expect(await ethAge.getAttribute("class")).toContain("text-red-700");
            const doge = table.getByRole("row").filter({ hasText: "DOGEUSDT" });
            await expectVisible(doge.getByText("No tick yet"));
            const btc = table.getByRole("row").filter({ hasText: "BTCUSDT" });
            expect(
              await btc.getByRole("cell").nth(2).locator("span").getAttribute("class"),
            ).not.toContain("text-red");
            // Problems first: the two halted assets head the table.
            expect(await table.getByRole("row").nth(1).textContent()).toMatch(/ETHUSDT|DOGEUSDT/);
            await dismissToasts(page);
            await screenshot(page, `admin-feeds-halted-${size}-${theme}`);
            expect(staffSession.problems).toEqual([]);
          } finally {
            await staffSession.close();
          }
        }
      } finally {
        await still.close();
      }
    });
  },
);
