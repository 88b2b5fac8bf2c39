import { linkIn } from "../../src/testing/smtp-capture.ts";
import type { TestPlatform } from "../../src/testing/test-platform.ts";
import { httpClient, newTrader } from "./http.ts";

/** Registers through the API and signs in; returns the trader's e-mail, password and token. */
export async function signedInTrader(
  platform: TestPlatform,
  overrides: Record<string, unknown> = {},
) {
  const http = httpClient(platform.baseUrl);
  const trader = newTrader(overrides);
  const registered = await http.post("/api/v1/register", trader);
  if (registered.status !== 201) throw new Error(`register failed: ${registered.text}`);
  const login = await http.post("/api/v1/login", {
    email: trader.email,
    password: trader.password,
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.text}`);
  return {
    email: trader.email.toLowerCase(),
    password: trader.password,
    token: login.body.data.token as string,
    user: login.body.data.user,
  };
}

/** The token and e-mail query parameters of the newest e-mailed link with this subject. */
export async function emailedLink(platform: TestPlatform, to: string, subject: RegExp) {
  const mail = await platform.smtp.waitFor(to, subject);
  const url = new URL(linkIn(mail, "http://localhost:3000/"));
  return {
    url,
    token: url.searchParams.get("token") ?? "",
    email: url.searchParams.get("email") ?? "",
  };
}
