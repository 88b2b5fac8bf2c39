import { referralUrl } from "@tp/domain/engagement";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient, newTrader } from "./support/http.ts";

describe.each(databaseKindsUnderTest())("referrals on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  it("needs a signed-in trader", async () => {
    expect((await http.get("/api/v1/referral-details")).status).toBe(401);
    expect((await http.get("/api/v1/referrals")).status).toBe(401);
  });

  it("gives each trader a code and a sign-up link that records who referred whom", async () => {
    const referrer = await signedInTrader(platform);
    const details = await http.get("/api/v1/referral-details", referrer.token);
    expect(details.status).toBe(200);
    const code = details.body.data.referral_id as string;
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(details.body.data).toEqual({
      referral_id: code,
      referral_url: `http://localhost:3000/account/sign-up?ref=${code}`,
    });
    expect(referralUrl("http://localhost:3000/", code)).toBe(details.body.data.referral_url);

    // Nobody yet: the page shows "No referrals yet".
    const none = await http.get("/api/v1/referrals", referrer.token);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual({ data: [], total: 0 });

    // The link opens the sign-up page (the web app), which sends the code as referral_code.
    const page = await fetch(`${platform.baseUrl}/account/sign-up?ref=${code}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("app shell");

    const first = await signedInTrader(platform, {
      first_name: "Grace",
      last_name: "hopper",
      referral_code: code,
    });
    platform.clock.advance(60_000);
    // Typed by hand in lower case, with spaces: still the same code.
    const second = await signedInTrader(platform, {
      first_name: "Alan",
      last_name: "Turing",
      referral_code: ` ${code.toLowerCase()} `,
    });
    // An unknown code does not stop a sign-up, and refers nobody.
    const stranger = await signedInTrader(platform, { referral_code: "NOSUCHCODE" });
    // Someone else's referral is not this trader's.
    const otherReferrer = await signedInTrader(platform);
    const otherCode = (await http.get("/api/v1/referral-details", otherReferrer.token)).body.data
      .referral_id;
    await signedInTrader(platform, { referral_code: otherCode });

    const list = await http.get("/api/v1/referrals", referrer.token);
    expect(list.status).toBe(200);
    // Newest first; first name and last initial only, never the e-mail.
    expect(list.body.data).toEqual({
      total: 2,
      data: [
        { id: second.user.id, name: "Alan T.", date_registered: "2026-01-15T12:01:00.000Z" },
        { id: first.user.id, name: "Grace H.", date_registered: "2026-01-15T12:00:00.000Z" },
      ],
    });
    expect(JSON.stringify(list.body)).not.toContain(first.email);

    const stored = await platform.database.query<{ id: number; referred_by_user_id: number }>(
      "SELECT id, referred_by_user_id FROM users WHERE id = ANY($1::bigint[]) ORDER BY id",
      [[first.user.id, second.user.id, stranger.user.id]],
    );
    expect(stored.rows).toEqual([
      { id: first.user.id, referred_by_user_id: referrer.user.id },
      { id: second.user.id, referred_by_user_id: referrer.user.id },
      { id: stranger.user.id, referred_by_user_id: null },
    ]);
    expect((await http.get("/api/v1/referrals", stranger.token)).body.data.total).toBe(0);
    expect((await http.get("/api/v1/referrals", otherReferrer.token)).body.data.total).toBe(1);
  });

  it("refuses a referral code longer than any code", async () => {
    const reply = await http.post("/api/v1/register", newTrader({ referral_code: "X".repeat(33) }));
    expect(reply.status).toBe(422);
    expect(reply.body.errors.referral_code).toEqual(["Invalid referral code"]);
  });
});
