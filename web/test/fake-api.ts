import type { TradeView, UserView } from "@tp/domain/api";
import { assetCatalogue, chartSymbol } from "@tp/domain/catalogue";
import type { ErrorCode } from "@tp/domain/error-codes";
import { losingAccountsMethod, notEnoughDataSentence } from "@tp/domain/losing-accounts";
import { type SiteContent, siteContentSchema } from "@tp/domain/site-content";
import shippedContent from "../../content/site.json";
import { configureApiClient } from "../src/api/client.ts";
import type { MarketView } from "../src/api/markets.ts";

/**
 * The API as the tests see it: a fetch function handed to the client (configureApiClient),
 * answering "METHOD /path" routes with JSON replies and recording every call.
 */
export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
  /** The multipart body of an upload, as the page built it. */
  form: FormData | null;
  authorization: string | null;
  idempotencyKey: string | null;
}

export interface FakeReply {
  status?: number;
  body?: unknown;
}

export type FakeRoute = FakeReply | ((call: ApiCall) => FakeReply | Promise<FakeReply>);
export type FakeRoutes = Record<string, FakeRoute>;

/** The shipped site.json, checked against the schema the app parses it with. */
export const siteContent: SiteContent = siteContentSchema.parse(shippedContent);

export const trader: UserView = {
  id: 7,
  email: "ada@example.com",
  username: "ada.lovelace",
  email_verified_at: "2025-01-01T00:00:00.000Z",
  role: "trader",
  account: {
    first_name: "Ada",
    last_name: "Lovelace",
    phone_number: "+44 20 7946 0000",
    country: "United Kingdom",
    account_balance: 1234.5,
    practice_balance: 10000,
    kyc_verified_at: null,
    plan: "basic",
  },
};

/** A price for every catalogue asset, as GET /markets gives them (EURUSD near 1.08). */
export const marketsFixture: MarketView[] = assetCatalogue.map((asset, index) => ({
  symbol: asset.symbol,
  name: asset.name,
  option_type: asset.optionType,
  chart_symbol: chartSymbol(asset, "simulated"),
  precision: asset.precision,
  price: asset.symbol === "EURUSD" ? 1.08 : 100 + index,
  at: "2026-01-15T12:00:00.000Z",
  change_24h_percent: 0.5,
  source: "simulated",
  is_open: true,
  state: "open",
  next_open_at: null,
  real_trading: false,
}));

/**
 * GET /markets with some rows changed (a state, real trading allowed…): `change` gets each
 * fixture row and returns what differs.
 */
export function marketsWith(change: (market: MarketView) => Partial<MarketView>): FakeReply {
  return success({ markets: marketsFixture.map((market) => ({ ...market, ...change(market) })) });
}

/** A history page of `trades` as GET /{real,practice}-trade-history answers it. */
export function historyPage(trades: TradeView[], page = 1, limit = 10, total = trades.length) {
  return success({
    data: trades,
    pagination: { last_page: Math.max(1, Math.ceil(total / limit)), current_page: page, total },
  });
}

/** A trade as the API shows it; open on EURUSD unless told otherwise. */
export function tradeFixture(overrides: Partial<TradeView> = {}): TradeView {
  return {
    id: 1,
    asset: "EURUSD",
    type: "call",
    amount: 10,
    duration: 30,
    is_practice: true,
    start_time: "2026-01-15T12:00:00.000Z",
    received_at: "2026-01-15T11:59:59.988Z",
    rule_version: 1,
    expires_at: "2026-01-15T12:00:30.000Z",
    entry_price: 1.08,
    entry_at: "2026-01-15T12:00:00.000Z",
    feed: "simulated",
    exit_price: null,
    exit_at: null,
    payout_percent: 85,
    profit: 8.5,
    profit_loss: null,
    status: "open",
    settled_at: null,
    ...overrides,
  };
}

export const defaultRoutes: FakeRoutes = {
  "GET /site-content": { body: { status: "success", data: siteContent } },
  "GET /health": { body: { status: "success" } },
  // No restricted country: the fake trader is from the United Kingdom (issue 14 item 4).
  "GET /restricted-countries": success({ countries: [] }),
  // The trade box reads whether a break is in force (issue 14 item 2): none.
  "GET /responsible-trading/exclusion": success({ exclusion: null }),
  // The footer's risk warning reads the share of losing accounts: none computed yet.
  "GET /risk-disclosure": success({
    snapshot: null,
    sentence: notEnoughDataSentence,
    method: losingAccountsMethod(100),
  }),
  "GET /user": { body: { status: "success", data: { user: trader } } },
  "POST /logout": { body: { status: "success", message: "Logged out" } },
  "GET /markets": { body: { status: "success", data: { markets: marketsFixture } } },
  "GET /real-trade-history": historyPage([]),
  "GET /practice-trade-history": historyPage([]),
  "GET /candles": {
    body: { status: "success", data: { symbol: "EURUSD", interval: "1m", candles: [] } },
  },
  // Every signed-in page reads these (bell badge, "New Transaction" toast): nothing yet.
  "GET /notifications": success({
    data: [],
    unread_count: 0,
    pagination: { last_page: 1, current_page: 1, total: 0 },
  }),
  "GET /activity/recent": success({ enabled: true, data: [] }),
  // Every optional market-information provider set up (the navigation shows their pages).
  "GET /market-info/providers": success({
    blockchain_stats: true,
    crypto_news: true,
    crypto_market: true,
  }),
  // The Security page's Passkeys section: none yet.
  "GET /passkeys": success({ passkeys: [] }),
  // The public document galleries (PRODUCT.md D6): the shipped content folder has none.
  "GET /site-content/galleries/legal-documents": success({ name: "legal-documents", images: [] }),
  "GET /site-content/galleries/confirmation": success({ name: "confirmation", images: [] }),
  "GET /site-content/galleries/financial-statement": success({
    name: "financial-statement",
    images: [],
  }),
};

export function success(data?: unknown, message?: string): FakeReply {
  return { status: 200, body: { status: "success", message, data } };
}

export function failure(
  status: number,
  message: string,
  errors?: Record<string, string[]>,
): FakeReply {
  return { status, body: { status: "error", message, errors } };
}

/** A refusal with its code, as the server sends it: what the web decides on. */
export function refusal(status: number, code: ErrorCode, message: string): FakeReply {
  return { status, body: { status: "error", code, message } };
}

export function installFakeApi(routes: FakeRoutes = {}) {
  const all = { ...defaultRoutes, ...routes };
  const calls: ApiCall[] = [];
  configureApiClient({
    baseUrl: "/api/v1",
    fetch: async (input, init) => {
      const path = input.replace(/^\/api\/v1/, "");
      const method = init.method ?? "GET";
      const headers = new Headers(init.headers);
      const call: ApiCall = {
        method,
        path,
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
        form: init.body instanceof FormData ? init.body : null,
        authorization: headers.get("Authorization"),
        idempotencyKey: headers.get("Idempotency-Key"),
      };
      calls.push(call);
      // A route without a query string answers every query of its path.
      const route = all[`${method} ${path}`] ?? all[`${method} ${path.split("?")[0]}`];
      const reply: FakeReply =
        route === undefined
          ? failure(404, "Route not found")
          : typeof route === "function"
            ? await route(call)
            : route;
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { "Content-Type": "application/json" },
      });
    },
  });
  return {
    calls,
    /** The calls made to one route, e.g. callsTo("PUT /update-profile"). */
    callsTo: (route: string) =>
      calls.filter(
        (call) =>
          `${call.method} ${call.path}` === route ||
          (!route.includes("?") && `${call.method} ${call.path.split("?")[0]}` === route),
      ),
  };
}

/** Stores a session as a signed-in trader's browser holds it. */
export function storeSession(token = "token-123", user: UserView = trader) {
  window.localStorage.setItem("token", token);
  window.localStorage.setItem("user", JSON.stringify(user));
}
