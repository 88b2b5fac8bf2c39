import { engagementMessages as e } from "@tp/domain/engagement";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  configurePaymentMethods,
  depositApproved,
  staff,
  staffToken,
  startFundingPlatform,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";
import { StreamClient } from "./support/stream-client.ts";

describe.each(databaseKindsUnderTest())("notifications on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
  });
  afterAll(async () => platform?.close());

  const list = async (token: string, query = "") => {
    const reply = await http.get(`/api/v1/notifications${query}`, token);
    expect(reply.status).toBe(200);
    return reply.body.data;
  };

  async function signedInSocket(token: string) {
    const stream = new StreamClient(platform.baseUrl);
    await stream.opened;
    stream.send({ type: "auth", token });
    await stream.waitFor((message) => message.type === "auth");
    return stream;
  }

  it("needs a signed-in trader", async () => {
    expect((await http.get("/api/v1/notifications")).status).toBe(401);
    expect((await http.post("/api/v1/notifications/1/read")).status).toBe(401);
  });

  it("starts empty, lists newest first with the unread count, and marks only the owner's read", async () => {
    const trader = await signedInTrader(platform);
    const other = await signedInTrader(platform);
    expect(await list(trader.token)).toEqual({
      data: [],
      unread_count: 0,
      pagination: { last_page: 1, current_page: 1, total: 0 },
    });

    // A real event: a confirmed deposit tells its trader.
    await depositApproved(platform, trader.token, admin, 25);
    platform.clock.advance(1000);
    const sent = await http.post(
      "/api/v1/admin/notifications",
      { title: "Maintenance", message: "Trading pauses at 22:00 UTC.", user_id: trader.user.id },
      admin,
    );
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      status: "success",
      message: "Notification sent to 1 trader",
      data: { recipients: 1 },
    });

    const listed = await list(trader.token);
    expect(listed.unread_count).toBe(2);
    expect(listed.pagination).toEqual({ last_page: 1, current_page: 1, total: 2 });
    expect(listed.data).toEqual([
      {
        id: expect.any(Number),
        kind: "broadcast",
        title: "Maintenance",
        message: "Trading pauses at 22:00 UTC.",
        created_at: "2026-01-15T12:00:01.000Z",
        is_read: false,
      },
      {
        id: expect.any(Number),
        kind: "deposit_confirmed",
        title: "Deposit confirmed",
        message: expect.stringContaining("$25.00"),
        created_at: "2026-01-15T12:00:00.000Z",
        is_read: false,
      },
    ]);
    const [broadcast, deposit] = listed.data;

    // Pages.
    const firstPage = await list(trader.token, "?page=1&limit=1");
    expect(firstPage.data.map((row: { id: number }) => row.id)).toEqual([broadcast.id]);
    expect(firstPage.pagination).toEqual({ last_page: 2, current_page: 1, total: 2 });
    const secondPage = await list(trader.token, "?page=2&limit=1");
    expect(secondPage.data.map((row: { id: number }) => row.id)).toEqual([deposit.id]);
    const tooMany = await http.get("/api/v1/notifications?limit=101", trader.token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe("limit must be a whole number from 1 to 100");

    // Another trader's notification does not exist for them, nor does a made-up one.
    const foreign = await http.post(`/api/v1/notifications/${deposit.id}/read`, {}, other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ status: "error", code: "NOT_FOUND" });
    expect((await http.post("/api/v1/notifications/99999999/read", {}, trader.token)).status).toBe(
      404,
    );
    expect((await http.post("/api/v1/notifications/abc/read", {}, trader.token)).status).toBe(400);
    expect((await list(trader.token)).unread_count).toBe(2);
    expect(await list(other.token)).toMatchObject({ data: [], unread_count: 0 });

    platform.clock.advance(1000);
    const read = await http.post(`/api/v1/notifications/${deposit.id}/read`, {}, trader.token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      status: "success",
      message: e.notificationMarkedRead,
      data: { notification: { ...deposit, is_read: true }, unread_count: 1 },
    });
    // Marking it again changes nothing and still succeeds.
    const again = await http.post(`/api/v1/notifications/${deposit.id}/read`, {}, trader.token);
    expect(again.status).toBe(200);
    expect(again.body.data.unread_count).toBe(1);
    const after = await list(trader.token);
    expect(after.unread_count).toBe(1);
    expect(after.data.map((row: { is_read: boolean }) => row.is_read)).toEqual([false, true]);
  });

  it("sends a new notification and the unread count to the owner's socket only", async () => {
    const trader = await signedInTrader(platform);
    const bystander = await signedInTrader(platform);
    const mine = await signedInSocket(trader.token);
    const theirs = await signedInSocket(bystander.token);
    try {
      const sent = await http.post(
        "/api/v1/admin/notifications",
        { title: "Hello", message: "Welcome aboard", user_id: trader.user.id },
        admin,
      );
      expect(sent.status).toBe(201);
      const message = await mine.waitFor((m) => m.type === "notification");
      const [stored] = (await list(trader.token)).data;
      expect(message).toEqual({
        type: "notification",
        notification: {
          id: stored.id,
          kind: "broadcast",
          title: "Hello",
          message: "Welcome aboard",
          created_at: stored.created_at,
          is_read: false,
        },
        unread_count: 1,
      });

      // A funding outcome (stored by the funding module) reaches the socket too.
      await depositApproved(platform, trader.token, admin, 10);
      const funded = await mine.waitFor(
        (m) =>
          m.type === "notification" &&
          (m.notification as { kind: string }).kind === "deposit_confirmed",
      );
      expect(funded.unread_count).toBe(2);

      const read = await http.post(`/api/v1/notifications/${stored.id}/read`, {}, trader.token);
      expect(read.status).toBe(200);
      expect(await mine.waitFor((m) => m.type === "notification_count")).toEqual({
        type: "notification_count",
        unread_count: 1,
      });
      // Let any stray delivery arrive before checking the bystander heard nothing.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(theirs.of("notification")).toEqual([]);
      expect(theirs.of("notification_count")).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it("lets staff broadcast to every trader, audit-logged, and only staff", async () => {
    const traders = [await signedInTrader(platform), await signedInTrader(platform)];
    const { rows } = await platform.database.query<{ total: number }>(
      "SELECT COUNT(*)::bigint AS total FROM users WHERE role = 'trader'",
    );
    const everyone = rows[0]!.total;

    const forbidden = await http.post(
      "/api/v1/admin/notifications",
      { title: "x", message: "y" },
      traders[0]!.token,
    );
    expect(forbidden.status).toBe(403);
    expect(
      (await http.post("/api/v1/admin/notifications", { title: "x", message: "y" })).status,
    ).toBe(401);

    const invalid = await http.post(
      "/api/v1/admin/notifications",
      { title: " ", message: "" },
      admin,
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({ title: [e.titleRequired], message: [e.messageRequired] });
    const tooLong = await http.post(
      "/api/v1/admin/notifications",
      { title: "t".repeat(101), message: "m".repeat(1001) },
      admin,
    );
    expect(tooLong.body.errors).toEqual({ title: [e.titleTooLong], message: [e.messageTooLong] });
    const adminUser = (await http.get("/api/v1/user", admin)).body.data.user;
    for (const user_id of [99999999, adminUser.id]) {
      const unknown = await http.post(
        "/api/v1/admin/notifications",
        { title: "x", message: "y", user_id },
        admin,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(e.traderNotFound);
    }

    const sent = await http.request("POST", "/api/v1/admin/notifications", {
      json: { title: "  New assets  ", message: "Gold and silver are back." },
      token: admin,
      headers: { "idempotency-key": "broadcast-1" },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toEqual({ recipients: everyone });
    expect(sent.body.message).toBe(`Notification sent to ${everyone} traders`);
    // A retried click is a replay, not a second broadcast.
    const replay = await http.request("POST", "/api/v1/admin/notifications", {
      json: { title: "  New assets  ", message: "Gold and silver are back." },
      token: admin,
      headers: { "idempotency-key": "broadcast-1" },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");

    for (const trader of traders) {
      const titles = (await list(trader.token)).data.filter(
        (row: { title: string }) => row.title === "New assets",
      );
      expect(titles).toHaveLength(1);
    }
    // Staff are not traders: the broadcast is not theirs.
    const stored = await platform.database.query("SELECT 1 FROM notifications WHERE user_id = $1", [
      adminUser.id,
    ]);
    expect(stored.rows).toEqual([]);

    const audit = await http.get("/api/v1/admin/audit-log?action=notification.broadcast", admin);
    expect(audit.status).toBe(200);
    const entry = audit.body.data.data.find(
      (row: { after: { title?: string } }) => row.after.title === "New assets",
    );
    expect(entry).toMatchObject({
      actor: { email: staff.email },
      action: "notification.broadcast",
      target_type: "traders",
      target_id: "all",
      after: {
        title: "New assets",
        message: "Gold and silver are back.",
        user_id: null,
        recipients: everyone,
      },
    });
    expect(
      audit.body.data.data.filter(
        (row: { after: { title?: string } }) => row.after.title === "New assets",
      ),
    ).toHaveLength(1);
  });
});
