import type { UserView } from "@tp/domain/api";
import { type SiteContent, siteContentSchema } from "@tp/domain/site-content";
import shippedContent from "../../content/site.json";
import { configureApiClient } from "../src/api/client.ts";

/**
 * The API as the tests see it: a fetch function handed to the client (configureApiClient),
 * answering "METHOD /path" routes with JSON replies and recording every call.
 */
export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
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

export const defaultRoutes: FakeRoutes = {
  "GET /site-content": { body: { status: "success", data: siteContent } },
  "GET /health": { body: { status: "success" } },
  "GET /user": { body: { status: "success", data: { user: trader } } },
  "POST /logout": { body: { status: "success", message: "Logged out" } },
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
        authorization: headers.get("Authorization"),
      };
      calls.push(call);
      const route = all[`${method} ${path}`];
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
    callsTo: (route: string) => calls.filter((call) => `${call.method} ${call.path}` === route),
  };
}

/** Stores a session as a signed-in trader's browser holds it. */
export function storeSession(token = "token-123", user: UserView = trader) {
  window.localStorage.setItem("token", token);
  window.localStorage.setItem("user", JSON.stringify(user));
}
