import { statSync } from "node:fs";
import path from "node:path";
import { engagementMessages as e, pushPayloadSchema } from "@tp/domain/engagement";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";
import { checkPushEndpoint } from "../src/push/push-subscriptions.ts";
import { generateVapidKeyPair, loadVapidKeys, vapid_key_file } from "../src/push/vapid-keys.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  decryptAes128gcm,
  type FakeBrowser,
  FakePushService,
} from "./support/fake-push-service.ts";
import {
  configurePaymentMethods,
  depositApproved,
  staffToken,
  startFundingPlatform,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

const silent = pino({ level: "silent" });

describe("the fake push service itself", () => {
  it("decrypts RFC 8291's worked example (§5, Appendix A)", () => {
    const body = Buffer.from(
      "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
      "base64url",
    );
    const receiver = {
      privateKey: Buffer.from("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94", "base64url"),
      publicKey: Buffer.from(
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
        "base64url",
      ),
      authSecret: Buffer.from("BTBZMqHH6r4Tts7J_aSIgg", "base64url"),
    };
    expect(decryptAes128gcm(body, receiver)).toBe("When I grow up, I want to be a watermelon");
    const tampered = Buffer.from(body);
    tampered[tampered.length - 20]! ^= 1;
    expect(() => decryptAes128gcm(tampered, receiver)).toThrow();
  });
});

describe("VAPID keys and endpoints", () => {
  const base = { DATA_DIR: "/nonexistent-never-written", MAIL_FROM: "Ops <ops@example.test>" };

  it("takes the keys from configuration, both or neither, and checks they are a pair", () => {
    const pair = generateVapidKeyPair();
    const config = loadConfig({
      ...base,
      VAPID_PUBLIC_KEY: pair.publicKey,
      VAPID_PRIVATE_KEY: pair.privateKey,
    });
    expect(loadVapidKeys(config, silent)).toEqual({ ...pair, subject: "mailto:ops@example.test" });
    expect(
      loadVapidKeys(
        loadConfig({
          ...base,
          ...pair,
          VAPID_PUBLIC_KEY: pair.publicKey,
          VAPID_PRIVATE_KEY: pair.privateKey,
          VAPID_SUBJECT: "https://ops.example.test",
        }),
        silent,
      ).subject,
    ).toBe("https://ops.example.test");

    expect(() => loadConfig({ ...base, VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(
      /VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together/,
    );
    expect(() => loadConfig({ ...base, VAPID_PRIVATE_KEY: "short" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, VAPID_SUBJECT: "http://example.test" })).toThrow(
      /VAPID_SUBJECT: must be a mailto: address or an https:\/\/ URL/,
    );
    const other = generateVapidKeyPair();
    const mismatched = loadConfig({
      ...base,
      VAPID_PUBLIC_KEY: other.publicKey,
      VAPID_PRIVATE_KEY: pair.privateKey,
    });
    expect(() => loadVapidKeys(mismatched, silent)).toThrow(/not the one of the private key/);
  });

  it("sends pushes only to https push services on public hosts, unless loopback is allowed", () => {
    const refused = (endpoint: string, loopback = false) =>
      expect(() => checkPushEndpoint(endpoint, loopback)).toThrow(e.pushEndpointInvalid);
    checkPushEndpoint("https://fcm.googleapis.com/fcm/send/abc", false);
    checkPushEndpoint("https://updates.push.services.mozilla.com/wpush/v2/abc", false);
    refused("http://fcm.googleapis.com/fcm/send/abc");
    refused("https://127.0.0.1/push");
    refused("https://10.0.0.8/push");
    refused("https://[::1]/push");
    refused("https://localhost/push");
    refused("https://intranet/push");
    refused("https://printer.local/push");
    refused("https://user:pass@fcm.googleapis.com/x");
    refused("http://127.0.0.1:9999/push");
    checkPushEndpoint("http://127.0.0.1:9999/push", true);
    checkPushEndpoint("http://localhost:9999/push", true);
    refused("http://192.168.1.10:9999/push", true);
    refused("ftp://127.0.0.1/push", true);
  });
});

describe.each(databaseKindsUnderTest())("Web Push on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;
  const pushService = new FakePushService();
  let publicKey: string;

  beforeAll(async () => {
    await pushService.start();
    platform = await startFundingPlatform(kind, { PUSH_ALLOW_LOOPBACK_ENDPOINTS: "true" });
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
    publicKey = (await http.get("/api/v1/notifications/push-key")).body.data.public_key;
  });
  afterAll(async () => {
    await platform?.close();
    await pushService.stop();
  });

  async function subscribed(token: string, browser: FakeBrowser = pushService.newBrowser()) {
    const saved = await http.post(
      "/api/v1/notifications/save-token",
      { token: browser.subscription },
      token,
    );
    expect(saved.status).toBe(200);
    return browser;
  }

  const broadcast = (userId: number, title: string, message: string) =>
    http.post("/api/v1/admin/notifications", { title, message, user_id: userId }, admin);

  it("publishes a VAPID public key made on first start and kept in DATA_DIR", async () => {
    const reply = await http.get("/api/v1/notifications/push-key");
    expect(reply.status).toBe(200);
    const key = Buffer.from(reply.body.data.public_key, "base64url");
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(0x04);
    const file = path.join(platform.context.config.DATA_DIR, vapid_key_file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await platform.restart();
    http = httpClient(platform.baseUrl);
    const again = await http.get("/api/v1/notifications/push-key");
    expect(again.body.data.public_key).toBe(reply.body.data.public_key);

    // The routes are in the API document the web client is built from.
    const openapi = (await http.get("/api/v1/openapi.json")).body;
    for (const route of [
      "/api/v1/notifications",
      "/api/v1/notifications/{id}/read",
      "/api/v1/notifications/push-key",
      "/api/v1/notifications/save-token",
      "/api/v1/admin/notifications",
      "/api/v1/referral-details",
      "/api/v1/referrals",
      "/api/v1/activity/recent",
    ]) {
      expect(Object.keys(openapi.paths)).toContain(route);
    }
  });

  it("saves a subscription only from a signed-in trader, and only a valid one", async () => {
    const trader = await signedInTrader(platform);
    const browser = pushService.newBrowser();
    const anonymous = await http.post("/api/v1/notifications/save-token", {
      token: browser.subscription,
    });
    expect(anonymous.status).toBe(401);

    const invalid = async (token: unknown, message: string) => {
      const reply = await http.post("/api/v1/notifications/save-token", { token }, trader.token);
      expect(reply.status).toBe(422);
      expect(reply.body.message).toBe(message);
    };
    const { endpoint, keys } = browser.subscription;
    await invalid({ endpoint }, e.pushKeysInvalid);
    await invalid({ endpoint, keys: { p256dh: keys.p256dh } }, e.pushKeysInvalid);
    await invalid(
      { endpoint, keys: { ...keys, auth: "not base64 at all!!!!!!" } },
      e.pushKeysInvalid,
    );
    // 65 bytes, but not an uncompressed point.
    await invalid(
      { endpoint, keys: { ...keys, p256dh: Buffer.alloc(65, 7).toString("base64url") } },
      e.pushKeysInvalid,
    );
    await invalid({ endpoint: "not a url", keys }, e.pushEndpointInvalid);
    await invalid({ endpoint: "http://192.168.1.20/push/x", keys }, e.pushEndpointInvalid);
    await invalid("{not json", e.pushSubscriptionInvalid);
    await invalid(undefined, e.pushSubscriptionInvalid);
    expect(
      (
        await platform.database.query("SELECT 1 FROM push_subscriptions WHERE user_id = $1", [
          trader.user.id,
        ])
      ).rows,
    ).toEqual([]);

    // The subscription object, or the JSON string of it, as a client may send.
    const saved = await http.post(
      "/api/v1/notifications/save-token",
      { token: JSON.stringify(browser.subscription) },
      trader.token,
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      status: "success",
      message: e.pushSubscriptionSaved,
      data: { endpoint },
    });
    // Saving again (the weekly refresh) keeps one row.
    await subscribed(trader.token, browser);
    const rows = await platform.database.query<{ user_id: number; endpoint: string }>(
      "SELECT user_id, endpoint FROM push_subscriptions WHERE endpoint = $1",
      [endpoint],
    );
    expect(rows.rows).toEqual([{ user_id: trader.user.id, endpoint }]);

    // Someone else signs in on that browser: it is theirs now.
    const next = await signedInTrader(platform);
    await subscribed(next.token, browser);
    const moved = await platform.database.query<{ user_id: number }>(
      "SELECT user_id FROM push_subscriptions WHERE endpoint = $1",
      [endpoint],
    );
    expect(moved.rows).toEqual([{ user_id: next.user.id }]);
  });

  it("pushes every notification, signed with our VAPID key and readable only by the browser", async () => {
    const trader = await signedInTrader(platform);
    const other = await signedInTrader(platform);
    const laptop = await subscribed(trader.token);
    const phone = await subscribed(trader.token);
    const otherBrowser = await subscribed(other.token);

    const sent = await broadcast(trader.user.id, "Maintenance", "Trading pauses at 22:00 UTC.");
    expect(sent.status).toBe(201);
    const [stored] = (await http.get("/api/v1/notifications", trader.token)).body.data.data;

    for (const browser of [laptop, phone]) {
      const [push] = await pushService.waitFor(browser);
      expect(push!.status).toBe(201);
      expect(push!.decryptError).toBeNull();
      expect(push!.vapid).toMatchObject({
        publicKey,
        claims: { aud: pushService.origin, sub: "mailto:no-reply@localhost" },
      });
      expect(push!.headers["content-encoding"]).toBe("aes128gcm");
      expect(Number(push!.headers.ttl)).toBe(86_400);
      const payload = pushPayloadSchema.parse(JSON.parse(push!.plaintext!));
      expect(payload).toEqual({
        id: stored.id,
        title: "Maintenance",
        message: "Trading pauses at 22:00 UTC.",
        created_at: stored.created_at,
        url: "/user/notifications",
      });
    }
    // The other trader's browser hears nothing of it, and its key could not read it anyway.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pushService.of(otherBrowser)).toEqual([]);
    expect(() => decryptAes128gcm(Buffer.alloc(200), otherBrowser)).toThrow();

    // A notification from a real event (a confirmed deposit) is pushed as well.
    await depositApproved(platform, trader.token, admin, 30);
    const pushes = await pushService.waitFor(laptop, 2);
    const funded = JSON.parse(pushes[1]!.plaintext!);
    expect(funded.title).toBe("Deposit confirmed");
    expect(funded.message).toContain("$30.00");

    // Delivered pushes leave nothing queued.
    await expect
      .poll(async () => {
        const queued = await platform.database.query(
          `SELECT 1 FROM push_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id
           WHERE s.user_id = $1`,
          [trader.user.id],
        );
        return queued.rows.length;
      })
      .toBe(0);
  });

  it("removes a subscription the push service says is gone (410 or 404)", async () => {
    const trader = await signedInTrader(platform);
    const gone = await subscribed(trader.token);
    const missing = await subscribed(trader.token);
    const kept = await subscribed(trader.token);
    pushService.answer(gone, 410);
    pushService.answer(missing, 404);

    expect((await broadcast(trader.user.id, "One", "First")).status).toBe(201);
    await pushService.waitFor(gone);
    await pushService.waitFor(missing);
    await pushService.waitFor(kept);
    await expect
      .poll(async () => {
        const rows = await platform.database.query<{ endpoint: string }>(
          "SELECT endpoint FROM push_subscriptions WHERE user_id = $1",
          [trader.user.id],
        );
        return rows.rows.map((row) => row.endpoint);
      })
      .toEqual([kept.subscription.endpoint]);

    expect((await broadcast(trader.user.id, "Two", "Second")).status).toBe(201);
    await pushService.waitFor(kept, 2);
    expect(pushService.of(gone)).toHaveLength(1);
    expect(pushService.of(missing)).toHaveLength(1);
  });

  it("retries a push the service could not take, with backoff, and never fails the request", async () => {
    const trader = await signedInTrader(platform);
    const browser = await subscribed(trader.token);
    pushService.answer(browser, 503);

    const sent = await broadcast(trader.user.id, "Retry", "Eventually");
    expect(sent.status).toBe(201);
    await pushService.waitFor(browser);
    await expect
      .poll(async () => {
        const rows = await platform.database.query<{ attempts: number; last_error: string | null }>(
          `SELECT attempts, last_error FROM push_deliveries d
           JOIN push_subscriptions s ON s.id = d.subscription_id WHERE s.user_id = $1`,
          [trader.user.id],
        );
        return rows.rows;
      })
      .toEqual([{ attempts: 1, last_error: expect.stringContaining("503") }]);

    // Not before its time: the clock has not moved, so nothing is sent again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(pushService.of(browser)).toHaveLength(1);

    pushService.answer(browser, 201);
    platform.clock.advance(11_000);
    const pushes = await pushService.waitFor(browser, 2);
    expect(pushes[1]!.status).toBe(201);
    expect(JSON.parse(pushes[1]!.plaintext!)).toMatchObject({
      title: "Retry",
      message: "Eventually",
    });
    await expect
      .poll(async () => {
        const rows = await platform.database.query(
          `SELECT 1 FROM push_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id
           WHERE s.user_id = $1`,
          [trader.user.id],
        );
        return rows.rows.length;
      })
      .toBe(0);
  });
});
