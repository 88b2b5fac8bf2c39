import type { StaffRole } from "@tp/domain/api";
import { createStaff } from "../../src/admin/first-admin.ts";
import { hashPassword } from "../../src/auth/passwords.ts";
import { signInWithSecondFactor } from "../../src/testing/second-factor-sign-in.ts";
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

/** The password of every staff account `signedInStaff` makes. */
export const staff_password = "StaffSecret1";

/**
 * Signs a member of staff in and returns the session token. Every staff sign-in of the
 * server tests goes through here, so a change to how staff sign in (a second factor, an
 * enrolment step) is made once.
 */
export async function signInStaff(platform: TestPlatform, email: string, password: string) {
  // Staff enrol in TOTP at their first sign-in and give a code at every later one.
  return (await signInWithSecondFactor(platform, email, password)).token;
}

let staff_serial = 0;

/**
 * A new member of staff with `role`, made as `npm run admin -- create <email> --role <role>`
 * makes one (the same server function, on the platform's database), then signed in.
 */
export async function signedInStaff(platform: TestPlatform, role: StaffRole) {
  staff_serial += 1;
  const email = `${role}-${staff_serial}-${Date.now()}@example.test`;
  const passwordHash = await hashPassword(staff_password);
  const created = await platform.database.transaction((transaction) =>
    createStaff(
      transaction,
      email,
      passwordHash,
      role,
      { userId: null, label: "test", ip: null },
      platform.clock.now(),
    ),
  );
  if (created.kind !== "created") throw new Error(`staff ${email} not created`);
  const token = await signInStaff(platform, email, staff_password);
  return { id: created.user.id, email, password: staff_password, token };
}
