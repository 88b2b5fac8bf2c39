import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SetupChecklist, SetupItemId } from "@tp/domain/setup-checklist";
import { sample_company_description } from "@tp/domain/site-content";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaff } from "../src/admin/first-admin.ts";
import { hashPassword } from "../src/auth/passwords.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader, signInStaff, staff_password } from "./support/accounts.ts";
import { changePaymentMethod, staffToken, startFundingPlatform } from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

const shippedContent = fileURLToPath(new URL("../../content/", import.meta.url));

async function checklist(platform: TestPlatform, token: string): Promise<SetupChecklist> {
  const reply = await httpClient(platform.baseUrl).get("/api/v1/admin/setup", token);
  expect(reply.status).toBe(200);
  return reply.body.data as SetupChecklist;
}

function item(list: SetupChecklist, id: SetupItemId) {
  const found = list.items.find((entry) => entry.id === id);
  if (!found) throw new Error(`no item ${id}`);
  return found;
}

function doneOf(list: SetupChecklist): Record<SetupItemId, boolean> {
  return Object.fromEntries(list.items.map((entry) => [entry.id, entry.done])) as Record<
    SetupItemId,
    boolean
  >;
}

it("the shipped content is the sample the checklist recognises", () => {
  const shipped = JSON.parse(readFileSync(path.join(shippedContent, "site.json"), "utf8"));
  expect(shipped.company.description).toBe(sample_company_description);
});

describe.each(databaseKindsUnderTest())("the operator's setup checklist on %s", (kind) => {
  describe("a fresh install: no SMTP, simulated prices, sample copy", () => {
    let platform: TestPlatform;
    let adminToken: string;

    beforeAll(async () => {
      platform = await startFundingPlatform(kind, { SMTP_URL: "" });
      adminToken = await staffToken(platform);
    });
    afterAll(async () => {
      await platform?.close();
    });

    it("says what is missing, each in a sentence", async () => {
      const list = await checklist(platform, adminToken);
      expect(list.items.map((entry) => entry.id)).toEqual([
        "payment_methods",
        "prices",
        "mail",
        "site_content",
        "staff_two_factor",
      ]);
      expect(doneOf(list)).toEqual({
        payment_methods: false,
        prices: false,
        mail: false,
        site_content: false,
        // The first admin enrolled in 2FA at the sign-in above; nobody else is staff.
        staff_two_factor: true,
      });
      expect(list.facts.payment_methods).toEqual({ available: 0, total: 8 });
      expect(list.facts.prices.live_assets).toBe(0);
      expect(list.facts.staff_two_factor).toEqual({ staff: 1, enrolled: 1 });
      expect(item(list, "payment_methods").detail).toMatch(/None of the 8 payment methods/);
      expect(item(list, "mail").detail).toMatch(/set SMTP_URL/);
      expect(item(list, "prices").detail).toMatch(/All 40 assets use simulated prices/);
      expect(item(list, "site_content").detail).toMatch(/sample company text/);
    });

    it("turns payment methods done when one is configured in the back office, and back when it is switched off", async () => {
      const configured = await changePaymentMethod(platform, adminToken, "bitcoin", {
        wallet_address: "bc1qsetupchecklist000000000000000000000",
      });
      expect(configured.status).toBe(200);
      let list = await checklist(platform, adminToken);
      expect(item(list, "payment_methods").done).toBe(true);
      expect(list.facts.payment_methods.available).toBe(1);
      expect(item(list, "payment_methods").detail).toMatch(/^1 of 8 payment methods/);

      const switchedOff = await changePaymentMethod(platform, adminToken, "bitcoin", {
        is_active: false,
      });
      expect(switchedOff.status).toBe(200);
      list = await checklist(platform, adminToken);
      expect(item(list, "payment_methods").done).toBe(false);
    });

    it("turns staff 2FA not done for a new member of staff until their first sign-in enrols them", async () => {
      const email = `setup-reviewer-${Date.now()}@example.test`;
      const created = await platform.database.transaction(async (transaction) =>
        createStaff(
          transaction,
          email,
          await hashPassword(staff_password),
          "reviewer",
          { userId: null, label: "test", ip: null },
          platform.clock.now(),
        ),
      );
      expect(created.kind).toBe("created");
      let list = await checklist(platform, adminToken);
      const before = list.facts.staff_two_factor;
      expect(before.staff - before.enrolled).toBe(1);
      expect(item(list, "staff_two_factor").done).toBe(false);
      expect(item(list, "staff_two_factor").detail).toMatch(
        /^1 member of staff has no second factor/,
      );

      await signInStaff(platform, email, staff_password);
      list = await checklist(platform, adminToken);
      expect(item(list, "staff_two_factor").done).toBe(true);
      expect(list.facts.staff_two_factor.enrolled).toBe(before.staff);
    });

    it("is for staff only", async () => {
      const trader = await signedInTrader(platform);
      const http = httpClient(platform.baseUrl);
      expect((await http.get("/api/v1/admin/setup", trader.token)).status).toBe(403);
      expect((await http.get("/api/v1/admin/setup")).status).toBe(401);
    });
  });

  describe("a platform set up: SMTP, live feeds, the operator's own copy", () => {
    let platform: TestPlatform;
    let contentDir: string;

    beforeAll(async () => {
      contentDir = mkdtempSync(path.join(tmpdir(), "tp-setup-content-"));
      cpSync(shippedContent, contentDir, { recursive: true });
      const site = JSON.parse(readFileSync(path.join(contentDir, "site.json"), "utf8"));
      site.company.description = "Example Markets Ltd runs fixed-time trading for its clients.";
      site.contact.general_email = "support@example.test";
      writeFileSync(path.join(contentDir, "site.json"), JSON.stringify(site));
      // The test platform sets SMTP_URL to its capturing SMTP server.
      platform = await startFundingPlatform(kind, {
        CONTENT_DIR: contentDir,
        FEED_SOURCES: "all=finnhub,crypto=binance",
        FEED_API_KEY: "test-finnhub-key",
      });
    });
    afterAll(async () => {
      await platform?.close();
      rmSync(contentDir, { recursive: true, force: true });
    });

    it("turns the settings' items done", async () => {
      const list = await checklist(platform, await staffToken(platform));
      expect(doneOf(list)).toMatchObject({
        prices: true,
        mail: true,
        site_content: true,
      });
      expect(list.facts.prices).toEqual({ live_assets: 40, simulated_assets: 0 });
      expect(list.facts.site_content).toEqual({ sample_copy: false, contact_channels: 1 });
    });
  });
});
