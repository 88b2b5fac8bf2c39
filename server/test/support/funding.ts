import type { ManualClock } from "../../src/clock.ts";
import { startTestPlatform, type TestPlatform } from "../../src/testing/test-platform.ts";
import { emailedLink, signedInStaff, signedInTrader, signInStaff } from "./accounts.ts";
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

/** Signs anyone in, through the second factor when the account has one (staff always do). */
export async function signIn(platform: TestPlatform, email: string, password: string) {
  return signInStaff(platform, email, password);
}

export function staffToken(platform: TestPlatform) {
  return signInStaff(platform, staff.email, staff.password);
}

/**
 * The second pair of eyes of a platform: an admin (so also a reviewer) other than the first
 * admin, made once per platform. Four eyes need two different people to approve a large
 * deposit or withdrawal and to confirm a payment-method change.
 */
const second_staff = new WeakMap<TestPlatform, Promise<{ id: number; token: string }>>();
export function secondStaff(platform: TestPlatform) {
  let made = second_staff.get(platform);
  if (!made) {
    made = signedInStaff(platform, "admin");
    second_staff.set(platform, made);
  }
  return made;
}

/**
 * A payment-method change as the back office makes one: proposed by `adminToken`'s admin and
 * confirmed by a second admin. Returns the confirm reply (the method after the change).
 */
export async function changePaymentMethod(
  platform: TestPlatform,
  adminToken: string,
  id: string,
  body: Record<string, unknown>,
): Promise<HttpReply> {
  const http = httpClient(platform.baseUrl);
  const proposed = await http.put(`/api/v1/admin/payment-methods/${id}`, body, adminToken);
  if (proposed.status !== 202) return proposed;
  const second = await secondStaff(platform);
  return http.post(
    `/api/v1/admin/payment-method-changes/${proposed.body.data.change.id}/confirm`,
    undefined,
    second.token,
  );
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
    const reply = await changePaymentMethod(platform, adminToken, id, body);
    if (reply.status !== 200) throw new Error(`configure ${id} failed: ${reply.text}`);
  }
}

// Files, by their first bytes -------------------------------------------------------------

// Real 4×4 images (made with sharp): uploads are decoded and encoded again, so a file that
// only starts like an image is refused. `size` pads one with filler after its end (decoders
// stop at the end; re-encoding drops the filler), for the size-limit tests.
const real_png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWM4IScHRwzEcQCxYxBB16puEAAAAABJRU5ErkJggg==",
  "base64",
);
const real_jpeg = Buffer.from(
  "/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAEAAQDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABgf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCAAHlhf//Z",
  "base64",
);
const real_webp = Buffer.from(
  "UklGRjoAAABXRUJQVlA4IC4AAACwAQCdASoEAAQAAUAmJaACdLoABDAAAP7x3I/4DdfFtMv/vYL/3YL/3YL/WwAA",
  "base64",
);

function padded(image: Buffer, size: number | undefined, filler: number): Uint8Array {
  const bytes = new Uint8Array(Math.max(size ?? image.length, image.length)).fill(filler);
  bytes.set(image);
  return bytes;
}

/** A real JPEG, padded to `size` bytes when given. */
export function jpegBytes(size?: number): Uint8Array {
  return padded(real_jpeg, size, 0x41);
}
/** A real PNG, padded to `size` bytes when given. */
export function pngBytes(size?: number): Uint8Array {
  return padded(real_png, size, 0x00);
}
export function pdfBytes(size = 64): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
  return bytes;
}
/** A real WebP. */
export function webpBytes(): Uint8Array {
  return new Uint8Array(real_webp);
}
/** Starts like a PNG but is not one (the signature, then filler): refused as not an image. */
export function fakePngBytes(size = 64): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x00);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
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

/**
 * Opens the withdrawal's e-mailed confirmation link as the trader would (issue 12): the
 * message naming `reference` (its transaction hash), then POST /withdrawals/confirm.
 */
export async function confirmWithdrawalByEmail(
  platform: TestPlatform,
  email: string,
  reference: string,
) {
  const subject = new RegExp(`^Confirm your withdrawal ${reference} `);
  const link = await emailedLink(platform, email, subject);
  const reply = await httpClient(platform.baseUrl).post("/api/v1/withdrawals/confirm", {
    token: link.token,
  });
  if (reply.status !== 200) throw new Error(`confirming ${reference} failed: ${reply.text}`);
  return reply;
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
  let approved = await http.post(
    `/api/v1/admin/deposits/${deposit_id}/approve`,
    undefined,
    adminToken,
  );
  if (approved.status === 200 && approved.body.data.deposit.status === "under_review") {
    // Above the four-eyes threshold: a second, different reviewer completes it.
    approved = await http.post(
      `/api/v1/admin/deposits/${deposit_id}/approve`,
      undefined,
      (await secondStaff(platform)).token,
    );
  }
  if (approved.status !== 200 || approved.body.data.deposit.status !== "confirmed") {
    throw new Error(`approve failed: ${approved.text}`);
  }
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
