import type { ManualClock } from "../../src/clock.ts";
import { startTestPlatform, type TestPlatform } from "../../src/testing/test-platform.ts";
import { emailedLink, signedInTrader } from "./accounts.ts";
import { type HttpReply, httpClient } from "./http.ts";

/** The first admin of every funding test platform (made on start from these). */
export const staff = { email: "staff@example.test", password: "StaffSecret1" };

export function startFundingPlatform(
  kind: "pglite" | "postgres",
  env: Record<string, string> = {},
  options: { clock?: ManualClock } = {},
): Promise<TestPlatform> {
  return startTestPlatform(kind, {
    env: { ADMIN_EMAIL: staff.email, ADMIN_PASSWORD: staff.password, ...env },
    ...options,
  });
}

export async function signIn(platform: TestPlatform, email: string, password: string) {
  const reply = await httpClient(platform.baseUrl).post("/api/v1/login", { email, password });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.text}`);
  return reply.body.data.token as string;
}

export function staffToken(platform: TestPlatform) {
  return signIn(platform, staff.email, staff.password);
}

/** Follows the e-mailed verification link, as the trader would. */
export async function verifyEmail(platform: TestPlatform, email: string) {
  const link = await emailedLink(platform, email, /^Verify your e-mail address/);
  const reply = await httpClient(platform.baseUrl).post("/api/v1/email/verify", {
    email: link.email,
    token: link.token,
  });
  if (reply.status !== 200) throw new Error(`verify failed: ${reply.text}`);
}

/** A wallet address, bank and money-transfer details for the methods tests use. */
export async function configurePaymentMethods(platform: TestPlatform, adminToken: string) {
  const http = httpClient(platform.baseUrl);
  const changes: Array<[string, Record<string, unknown>]> = [
    [
      "bitcoin",
      {
        wallet_address: "bc1qtestwalletaddress0000000000000000000",
        instructions: ["Send only BTC to this address", "Use the reference as the memo"],
        is_recommended: true,
      },
    ],
    [
      "bank-transfer",
      {
        additional_details: {
          bank_name: "Test Bank",
          account_name: "Platform Ltd",
          account_number: "12345678",
          swift_code: "TESTGB2L",
        },
      },
    ],
    ["western-union", { additional_details: { location: "London", receiver: "Platform Ltd" } }],
  ];
  for (const [id, body] of changes) {
    const reply = await http.put(`/api/v1/admin/payment-methods/${id}`, body, adminToken);
    if (reply.status !== 200) throw new Error(`configure ${id} failed: ${reply.text}`);
  }
}

// Files, by their first bytes -------------------------------------------------------------

/** `size` bytes that start like a JPEG (the rest is filler: only the head decides the type). */
export function jpegBytes(size = 64): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x41);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
  return bytes;
}
export function pngBytes(size = 64): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x00);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}
export function pdfBytes(size = 64): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
  return bytes;
}
export function webpBytes(size = 64): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x00);
  bytes.set(new TextEncoder().encode("RIFF\x00\x00\x00\x00WEBPVP8 "));
  return bytes;
}
export const htmlBytes = () =>
  new TextEncoder().encode("<!doctype html><script>alert(document.cookie)</script>");
export const gifBytes = () => new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;");

export interface FilePart {
  field: string;
  bytes: Uint8Array;
  name: string;
  /** What the client claims; the server must not believe it. */
  type?: string;
}

/** POSTs a multipart form with fetch's own encoder, as a browser would. */
export async function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string>,
  file: FilePart | null,
  token?: string,
): Promise<HttpReply> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) {
    form.append(
      file.field,
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], {
        type: file.type ?? "application/octet-stream",
      }),
      file.name,
    );
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** A signed-in trader whose e-mail is verified. */
export async function verifiedTrader(platform: TestPlatform) {
  const trader = await signedInTrader(platform);
  await verifyEmail(platform, trader.email);
  return trader;
}

/** A deposit made, paid (receipt uploaded) and approved by staff: the real balance holds it. */
export async function depositApproved(
  platform: TestPlatform,
  traderToken: string,
  adminToken: string,
  amount: number,
) {
  const http = httpClient(platform.baseUrl);
  const created = await http.post(
    "/api/v1/deposits",
    { payment_method_id: "bitcoin", amount },
    traderToken,
  );
  if (created.status !== 201) throw new Error(`deposit failed: ${created.text}`);
  const { deposit_id, transaction_hash } = created.body.data;
  const receipt = await postForm(
    platform.baseUrl,
    `/api/v1/deposits/${deposit_id}/receipt`,
    { transaction_hash },
    { field: "receipt", bytes: pngBytes(), name: "receipt.png", type: "image/png" },
    traderToken,
  );
  if (receipt.status !== 200) throw new Error(`receipt failed: ${receipt.text}`);
  const approved = await http.post(
    `/api/v1/admin/deposits/${deposit_id}/approve`,
    undefined,
    adminToken,
  );
  if (approved.status !== 200) throw new Error(`approve failed: ${approved.text}`);
  return deposit_id as number;
}

/** Uploads an identity document and has staff approve it. */
export async function identityApproved(
  platform: TestPlatform,
  traderToken: string,
  adminToken: string,
) {
  const uploaded = await postForm(
    platform.baseUrl,
    "/api/v1/upload-verification",
    { id_type: "passport", accept_terms: "1" },
    { field: "file", bytes: jpegBytes(), name: "passport.jpg", type: "image/jpeg" },
    traderToken,
  );
  if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.text}`);
  const id = uploaded.body.data.verification.id as number;
  const approved = await httpClient(platform.baseUrl).post(
    `/api/v1/admin/verifications/${id}/approve`,
    undefined,
    adminToken,
  );
  if (approved.status !== 200) throw new Error(`approve failed: ${approved.text}`);
  return id;
}

/** A trader allowed to withdraw (e-mail verified, identity approved) with `amount` real dollars. */
export async function withdrawableTrader(
  platform: TestPlatform,
  adminToken: string,
  amount: number,
) {
  const trader = await verifiedTrader(platform);
  await identityApproved(platform, trader.token, adminToken);
  if (amount > 0) await depositApproved(platform, trader.token, adminToken, amount);
  return trader;
}

export async function balancesOf(platform: TestPlatform, token: string) {
  const me = await httpClient(platform.baseUrl).get("/api/v1/user", token);
  return me.body.data.user.account as {
    account_balance: number;
    practice_balance: number;
    kyc_verified_at: string | null;
  };
}

export async function notificationsOf(platform: TestPlatform, userId: number) {
  const result = await platform.database.query<{ kind: string; title: string; message: string }>(
    "SELECT kind, title, message FROM notifications WHERE user_id = $1 ORDER BY id",
    [userId],
  );
  return result.rows;
}
