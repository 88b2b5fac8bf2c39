import { serverMessages } from "@tp/domain/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceKey, ipNetwork } from "../src/auth/device-label.ts";
import { newOpaqueToken } from "../src/auth/opaque-token.ts";
import { sessionReuseWindowMs } from "../src/auth/sessions.ts";
import { ConfigError, loadConfig } from "../src/config.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader, signInStaff } from "./support/accounts.ts";
import { staff } from "./support/funding.ts";
import { httpClient } from "./support/http.ts";
import { StreamClient } from "./support/stream-client.ts";

const minute_ms = 60_000;
const hour_ms = 60 * minute_ms;

const chromeOnWindows =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const firefoxOnLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const safariOnIPhone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describe("how long a session lookup is reused", () => {
  it("is 5–10 s, the same for a token every time, spread evenly over tokens", () => {
    const windowsMs = Array.from({ length: 2_000 }, () =>
      sessionReuseWindowMs(newOpaqueToken().hash),
    );
    expect(Math.min(...windowsMs)).toBeGreaterThanOrEqual(5_000);
    expect(Math.max(...windowsMs)).toBeLessThan(10_000);
    // Lookups made in the same moment come back over the whole spread, not together: each
    // second of it holds about a fifth of the tokens.
    for (let second = 5; second < 10; second++) {
      const share =
        windowsMs.filter((ms) => ms >= second * 1_000 && ms < (second + 1) * 1_000).length /
        windowsMs.length;
      expect(share).toBeGreaterThan(0.15);
      expect(share).toBeLessThan(0.25);
    }
    const { hash } = newOpaqueToken();
    expect(sessionReuseWindowMs(hash)).toBe(sessionReuseWindowMs(hash));
  });
});

describe("what counts as the same device", () => {
  it("is the browser and system without versions, and the IP's /24 (IPv6 /48)", () => {
    expect(ipNetwork("203.0.113.77")).toBe("203.0.113.0/24");
    expect(ipNetwork("::ffff:203.0.113.77")).toBe("203.0.113.0/24");
    expect(ipNetwork("2001:db8:abcd:12::1")).toBe("2001:db8:abcd::/48");
    expect(ipNetwork("2001:db8::1")).toBe("2001:db8:0::/48");
    const chrome130 = chromeOnWindows.replace("131.0.0.0", "130.0.0.0");
    expect(deviceKey(chrome130, "203.0.113.5")).toBe(deviceKey(chromeOnWindows, "203.0.113.77"));
    expect(deviceKey(chromeOnWindows, "203.0.114.5")).not.toBe(
      deviceKey(chromeOnWindows, "203.0.113.5"),
    );
    expect(deviceKey(firefoxOnLinux, "203.0.113.5")).not.toBe(
      deviceKey(chromeOnWindows, "203.0.113.5"),
    );
  });
});

describe("session lifetime settings", () => {
  it("default to 24 h / 30 days for traders and 30 min / 12 h for staff", () => {
    const config = loadConfig({});
    expect(config.TRADER_SESSION_IDLE_MINUTES).toBe(24 * 60);
    expect(config.TRADER_SESSION_ABSOLUTE_HOURS).toBe(30 * 24);
    expect(config.STAFF_SESSION_IDLE_MINUTES).toBe(30);
    expect(config.STAFF_SESSION_ABSOLUTE_HOURS).toBe(12);
  });

  it("refuse an idle time longer than the absolute one, naming the variable", () => {
    expect(() =>
      loadConfig({ STAFF_SESSION_IDLE_MINUTES: "800", STAFF_SESSION_ABSOLUTE_HOURS: "12" }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ TRADER_SESSION_IDLE_MINUTES: "0" })).toThrow(
      /TRADER_SESSION_IDLE_MINUTES/,
    );
  });
});

describe.each(databaseKindsUnderTest())("sessions and sign-in history on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind, {
      env: { ADMIN_EMAIL: staff.email, ADMIN_PASSWORD: staff.password },
    });
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  async function login(email: string, password: string, userAgent = chromeOnWindows) {
    return http.request("POST", "/api/v1/login", {
      json: { email, password },
      headers: { "user-agent": userAgent },
    });
  }
  async function tokenOf(email: string, password: string, userAgent = chromeOnWindows) {
    const reply = await login(email, password, userAgent);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data.token as string;
  }
  async function sessionsOf(token: string) {
    const reply = await http.get("/api/v1/sessions", token);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data.sessions as Array<{
      id: number;
      browser: string;
      ip: string;
      current: boolean;
    }>;
  }
  async function authedSocket(token: string) {
    const socket = new StreamClient(platform.baseUrl);
    await socket.opened;
    socket.send({ type: "auth", token });
    await socket.waitFor((message) => message.type === "auth" && message.status === "ok");
    return socket;
  }
  /**
   * Runs `revoke` and returns how long the socket stayed open after the revocation answered
   * (it is committed by then; the time of the request itself, password hashing included, is
   * not the socket's), and the close code.
   */
  async function closedAfter(socket: StreamClient, revoke: () => Promise<unknown>) {
    let closedAtMs: number | null = null;
    socket.socket.once("close", () => {
      closedAtMs = Date.now();
    });
    await revoke();
    const answeredAtMs = Date.now();
    const outcome = await Promise.race([
      socket.closed,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000)),
    ]);
    return {
      elapsedMs: Math.max(0, (closedAtMs ?? Date.now()) - answeredAtMs),
      code: outcome?.code ?? null,
    };
  }

  it("records every attempt on a known account: wrong password and success, with IP and browser", async () => {
    const trader = await signedInTrader(platform);
    const wrong = await login(trader.email, "Wrong1234", firefoxOnLinux);
    expect(wrong.status).toBe(401);
    await tokenOf(trader.email, trader.password, safariOnIPhone);

    const history = await http.get("/api/v1/sign-in-history", trader.token);
    expect(history.status, history.text).toBe(200);
    const rows = history.body.data.data;
    // Newest first: the Safari success, the Firefox failure, the sign-up's own sign-in.
    expect(rows.map((row: { result: string }) => row.result)).toEqual([
      "succeeded",
      "wrong_password",
      "succeeded",
    ]);
    expect(rows[0].browser).toBe("Safari on iOS");
    expect(rows[1].browser).toBe("Firefox on Linux");
    expect(rows[1].ip).toMatch(/127\.0\.0\.1/);
    expect(history.body.data.pagination).toEqual({ last_page: 1, current_page: 1, total: 3 });

    const paged = await http.get("/api/v1/sign-in-history?page=2&limit=2", trader.token);
    expect(paged.body.data.data).toHaveLength(1);
    expect(paged.body.data.pagination).toEqual({ last_page: 2, current_page: 2, total: 3 });
    expect((await http.get("/api/v1/sign-in-history?limit=1000", trader.token)).status).toBe(400);
    expect((await http.get("/api/v1/sign-in-history")).status).toBe(401);
  });

  it("keeps nothing for an unknown address, and each user sees only their own history", async () => {
    const before = await platform.database.query<{ total: number }>(
      "SELECT count(*)::int AS total FROM sign_in_attempts",
    );
    expect((await login("nobody.here@example.test", "Secret123")).status).toBe(401);
    const after = await platform.database.query<{ total: number }>(
      "SELECT count(*)::int AS total FROM sign_in_attempts",
    );
    expect(after.rows[0]!.total).toBe(before.rows[0]!.total);

    const first = await signedInTrader(platform);
    const second = await signedInTrader(platform);
    await login(first.email, "Wrong1234");
    const secondHistory = await http.get("/api/v1/sign-in-history", second.token);
    expect(secondHistory.body.data.pagination.total).toBe(1);
  });

  it("lists the caller's live sessions, marks this one, and ends one of them", async () => {
    const trader = await signedInTrader(platform);
    const phone = await tokenOf(trader.email, trader.password, safariOnIPhone);
    const sessions = await sessionsOf(trader.token);
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    const phoneSession = sessions.find((session) => session.browser === "Safari on iOS");
    expect(phoneSession?.current).toBe(false);

    const ended = await http.request("DELETE", `/api/v1/sessions/${phoneSession!.id}`, {
      token: trader.token,
    });
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body.message).toBe(serverMessages.sessionEnded);
    expect((await http.get("/api/v1/user", phone)).status).toBe(401);
    expect((await http.get("/api/v1/user", trader.token)).status).toBe(200);
    expect(await sessionsOf(trader.token)).toHaveLength(1);
    // Already ended: still the caller's, so not a 404, and nothing changes.
    const again = await http.request("DELETE", `/api/v1/sessions/${phoneSession!.id}`, {
      token: trader.token,
    });
    expect(again.status).toBe(200);
  });

  it("answers 404 for another user's session and leaves it alone", async () => {
    const owner = await signedInTrader(platform);
    const intruder = await signedInTrader(platform);
    const [ownerSession] = await sessionsOf(owner.token);
    const reply = await http.request("DELETE", `/api/v1/sessions/${ownerSession!.id}`, {
      token: intruder.token,
    });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe("NOT_FOUND");
    expect((await http.get("/api/v1/user", owner.token)).status).toBe(200);
    expect(
      (await http.request("DELETE", "/api/v1/sessions/abc", { token: intruder.token })).status,
    ).toBe(400);
    expect((await http.request("DELETE", "/api/v1/sessions/1")).status).toBe(401);
  });

  it("ending this session signs out", async () => {
    const trader = await signedInTrader(platform);
    const [current] = await sessionsOf(trader.token);
    const reply = await http.request("DELETE", `/api/v1/sessions/${current!.id}`, {
      token: trader.token,
    });
    expect(reply.status).toBe(200);
    expect((await http.get("/api/v1/user", trader.token)).status).toBe(401);
  });

  it("lets staff read a trader's sign-in history", async () => {
    const admin = await signInStaff(platform, staff.email, staff.password);
    const trader = await signedInTrader(platform);
    await login(trader.email, "Wrong1234");
    const reply = await http.get(`/api/v1/admin/users/${trader.user.id}/sign-in-history`, admin);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.data.map((row: { result: string }) => row.result)).toEqual([
      "wrong_password",
      "succeeded",
    ]);
    expect((await http.get("/api/v1/admin/users/999999/sign-in-history", admin)).status).toBe(404);
    expect(
      (await http.get(`/api/v1/admin/users/${trader.user.id}/sign-in-history`, trader.token))
        .status,
    ).toBe(403);
  });

  describe("a revoked session loses its socket within a second", () => {
    it("on DELETE /sessions/{id}", async () => {
      const trader = await signedInTrader(platform);
      const other = await tokenOf(trader.email, trader.password, firefoxOnLinux);
      const socket = await authedSocket(other);
      const otherId = (await sessionsOf(trader.token)).find((session) => !session.current)!.id;
      const closed = await closedAfter(socket, () =>
        http.request("DELETE", `/api/v1/sessions/${otherId}`, { token: trader.token }),
      );
      expect(closed.code).toBe(4401);
      expect(closed.elapsedMs).toBeLessThan(1_000);
    });

    it("on logout, and only that session's sockets", async () => {
      const trader = await signedInTrader(platform);
      const other = await tokenOf(trader.email, trader.password);
      const ending = await authedSocket(trader.token);
      const staying = await authedSocket(other);
      const closed = await closedAfter(ending, () =>
        http.post("/api/v1/logout", undefined, trader.token),
      );
      expect(closed.code).toBe(4401);
      expect(closed.elapsedMs).toBeLessThan(1_000);
      staying.send({ type: "ping" });
      await staying.waitFor((message) => message.type === "pong");
      expect(staying.socket.readyState).toBe(staying.socket.OPEN);
      staying.close();
    });

    it("on a password change (the other sessions) and on staff revocation", async () => {
      const trader = await signedInTrader(platform);
      const other = await tokenOf(trader.email, trader.password);
      const otherSocket = await authedSocket(other);
      const changed = await closedAfter(otherSocket, () =>
        http.put(
          "/api/v1/update-password",
          {
            current_password: trader.password,
            password: "Newsecret123",
            password_confirmation: "Newsecret123",
          },
          trader.token,
        ),
      );
      expect(changed.code).toBe(4401);
      expect(changed.elapsedMs).toBeLessThan(1_000);

      const admin = await signInStaff(platform, staff.email, staff.password);
      const socket = await authedSocket(trader.token);
      const revoked = await closedAfter(socket, () =>
        http.post(`/api/v1/admin/users/${trader.user.id}/sessions/revoke-all`, undefined, admin),
      );
      expect(revoked.code).toBe(4401);
      expect(revoked.elapsedMs).toBeLessThan(1_000);
    });
  });

  it("e-mails the owner on a sign-in from a new device, not on the first sign-in or a known one", async () => {
    // signedInTrader signs in once right after sign-up (no user agent): the first sign-in.
    const trader = await signedInTrader(platform);
    await tokenOf(trader.email, trader.password, chromeOnWindows);
    // The same browser after an update, same network: a known device.
    await tokenOf(trader.email, trader.password, chromeOnWindows.replace("131.", "132."));
    await tokenOf(trader.email, trader.password, firefoxOnLinux);
    // A wrong password from yet another browser is no sign-in; Firefox again is known.
    await login(trader.email, "Wrong1234", safariOnIPhone);
    await tokenOf(trader.email, trader.password, firefoxOnLinux);

    const newDeviceMails = () =>
      platform.smtp.messages.filter(
        (message) => message.to.includes(trader.email) && /^New sign-in/.test(message.subject),
      );
    const deadline = Date.now() + 30_000;
    while (newDeviceMails().length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Give a wrongly queued third e-mail the time to arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // signedInTrader's sign-in (as "node": an unknown browser) was the first: no e-mail.
    // Chrome is then new, the updated Chrome is not, Firefox is new, Firefox again is not.
    // The outbox may deliver them in either order.
    const mails = newDeviceMails();
    expect(mails).toHaveLength(2);
    const chrome = mails.find((mail) => mail.text.includes("Chrome on Windows"));
    const firefox = mails.find((mail) => mail.text.includes("Firefox on Linux"));
    expect(chrome).toBeDefined();
    expect(firefox?.text).toContain("127.0.0.1");
    expect(firefox?.text).toContain("http://localhost:3000/user/security");
  });

  it("ends trader sessions after 24 idle hours and 30 days however active", async () => {
    const idle = await signedInTrader(platform);
    platform.clock.advance(24 * hour_ms - minute_ms);
    expect((await http.get("/api/v1/user", idle.token)).status).toBe(200);
    platform.clock.advance(24 * hour_ms + minute_ms);
    expect((await http.get("/api/v1/user", idle.token)).status).toBe(401);

    const active = await signedInTrader(platform);
    let elapsedMs = 0;
    while (elapsedMs + 20 * hour_ms < 30 * 24 * hour_ms) {
      platform.clock.advance(20 * hour_ms);
      elapsedMs += 20 * hour_ms;
      expect((await http.get("/api/v1/user", active.token)).status).toBe(200);
    }
    platform.clock.advance(30 * 24 * hour_ms - elapsedMs);
    expect((await http.get("/api/v1/user", active.token)).status).toBe(401);
  });

  it("ends staff sessions after 30 idle minutes and 12 hours however active", async () => {
    const idle = await signInStaff(platform, staff.email, staff.password);
    platform.clock.advance(29 * minute_ms);
    expect((await http.get("/api/v1/user", idle)).status).toBe(200);
    platform.clock.advance(30 * minute_ms + 1_000);
    expect((await http.get("/api/v1/user", idle)).status).toBe(401);

    const active = await signInStaff(platform, staff.email, staff.password);
    // A trader's token from the same moment outlives the staff idle time.
    const trader = await signedInTrader(platform);
    let elapsedMs = 0;
    while (elapsedMs + 25 * minute_ms < 12 * hour_ms) {
      platform.clock.advance(25 * minute_ms);
      elapsedMs += 25 * minute_ms;
      expect((await http.get("/api/v1/admin/users?q=a", active)).status).toBe(200);
    }
    platform.clock.advance(12 * hour_ms - elapsedMs);
    expect((await http.get("/api/v1/user", active)).status).toBe(401);
    expect((await http.get("/api/v1/user", trader.token)).status).toBe(200);
  });
});
