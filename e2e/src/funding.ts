import { deflateSync } from "node:zlib";
import { createStaff } from "@tp/server/admin/first-admin";
import { hashPassword } from "@tp/server/auth/passwords";
import { signInWithSecondFactor } from "@tp/server/testing/second-factor-sign-in";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import { type ApiReply, api } from "./platform.ts";

/**
 * Funding and back-office support: the first admin of the platform, real upload files (the
 * server decides the type by the first bytes, and the back office shows them), and the
 * setup steps a journey needs but does not test, done through the API.
 */

/** The first admin: ADMIN_EMAIL and ADMIN_PASSWORD on the platform's first start. */
export const staff = { email: "staff@example.test", password: "Backoffice2026" } as const;

/** startProxiedBrowserPlatform's env for a platform whose first admin is `staff`. */
export const staff_env = { ADMIN_EMAIL: staff.email, ADMIN_PASSWORD: staff.password };

/** The Bitcoin address staff configure (the withdrawal form's pattern: 8-128 of [A-Za-z0-9:._-]). */
export const platform_btc_address = "bc1qe2eplatformwallet7k3m9x0s4d2f8g6h5j";

// Files ------------------------------------------------------------------------------------

const crc_table = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (crc_table[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG (decodable: the back office shows it as an image) that looks like a payment
 * receipt: a white slip with a green header band and grey "text" lines.
 */
export function receiptPng(width = 240, height = 160): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 0xff); // filter byte 0 is set below
    row[0] = 0;
    for (let x = 0; x < width; x++) {
      let rgb: [number, number, number] = [255, 255, 255];
      if (y < 28) rgb = [16, 150, 96];
      else if (x > 16 && x < width - 16 && (y - 40) % 18 < 6 && y < height - 16) {
        rgb = (y - 40) % 36 < 18 ? [120, 130, 145] : [190, 196, 205];
      }
      row.set(rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.concat(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A real one-page PDF (with a correct cross-reference table) that reads as an ID document. */
export function identityPdf(holder = "GRACE HOPPER"): Buffer {
  const text = `BT /F1 20 Tf 48 300 Td (PASSPORT) Tj 0 -36 Td /F1 14 Tf (Holder: ${holder}) Tj 0 -22 Td (No. E2E000123) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 360] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

/** What setInputFiles takes for an in-memory file. */
export function filePayload(name: string, mimeType: string, buffer: Buffer) {
  return { name, mimeType, buffer };
}

// API setup ----------------------------------------------------------------------------------

function expectStatus(reply: ApiReply, status: number, what: string): ApiReply {
  if (reply.status !== status) {
    throw new Error(`${what} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  }
  return reply;
}

/** Signs anyone in by the API, through the second factor when the account has one (staff). */
export async function signInByApi(
  platform: TestPlatform,
  email: string,
  password: string,
): Promise<string> {
  return (await signInWithSecondFactor(platform, email, password)).token;
}

/** POSTs a multipart form with one file, as the browser's forms do. */
export async function postForm(
  platform: TestPlatform,
  path: string,
  token: string,
  fields: Record<string, string>,
  file: { field: string; name: string; type: string; bytes: Buffer },
): Promise<ApiReply> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const reply = await fetch(`${platform.baseUrl}/api/v1${path}`, {
    method: "POST",
    body: form,
    headers: { accept: "application/json", authorization: `Bearer ${token}` },
  });
  return { status: reply.status, body: await reply.json() };
}

/**
 * The second pair of eyes: an admin other than the first, for the steps four eyes give to a
 * different person (confirming a payment-method change, the second approval of a large
 * deposit). Made as `npm run admin -- create --role admin` makes staff, on the platform's
 * database, once per platform; signed in through `signInByApi` like every staff member.
 */
export const second_admin = {
  email: "second-admin@example.test",
  password: "Backoffice2026b",
} as const;

const second_admins = new WeakMap<TestPlatform, Promise<string>>();

export function secondAdminTokenByApi(platform: TestPlatform): Promise<string> {
  let token = second_admins.get(platform);
  if (!token) {
    token = (async () => {
      const passwordHash = await hashPassword(second_admin.password);
      await platform.database.transaction((transaction) =>
        createStaff(
          transaction,
          second_admin.email,
          passwordHash,
          "admin",
          { userId: null, label: "e2e", ip: null },
          platform.clock.now(),
        ),
      );
      return signInByApi(platform, second_admin.email, second_admin.password);
    })();
    second_admins.set(platform, token);
  }
  return token;
}

/** A second admin confirms every payment-method change waiting for one. */
export async function confirmPendingChangesByApi(platform: TestPlatform): Promise<void> {
  const token = await secondAdminTokenByApi(platform);
  const pending = expectStatus(
    await api(platform, "GET", "/admin/payment-method-changes", { token }),
    200,
    "listing pending payment-method changes",
  );
  for (const change of pending.body.data as Array<{ id: number }>) {
    expectStatus(
      await api(platform, "POST", `/admin/payment-method-changes/${change.id}/confirm`, { token }),
      200,
      `confirming payment-method change ${change.id}`,
    );
  }
}

/**
 * Staff configure Bitcoin (address, instructions, recommended) through the admin API: one
 * admin proposes the change, a second confirms it.
 */
export async function configureBitcoinByApi(
  platform: TestPlatform,
  staffToken: string,
): Promise<void> {
  expectStatus(
    await api(platform, "PUT", "/admin/payment-methods/bitcoin", {
      token: staffToken,
      body: {
        wallet_address: platform_btc_address,
        instructions: ["Send only BTC to this address.", "Put the payment reference in the memo."],
        is_recommended: true,
      },
    }),
    202,
    "proposing the bitcoin configuration",
  );
  await confirmPendingChangesByApi(platform);
}

/** A Bitcoin deposit with its receipt, approved by staff: the real balance holds `amount`. */
export async function approvedDepositByApi(
  platform: TestPlatform,
  traderToken: string,
  staffToken: string,
  amount: number,
): Promise<void> {
  const created = expectStatus(
    await api(platform, "POST", "/deposits", {
      token: traderToken,
      body: { payment_method_id: "bitcoin", amount },
    }),
    201,
    "creating a deposit",
  );
  const { deposit_id, transaction_hash } = created.body.data;
  expectStatus(
    await postForm(
      platform,
      `/deposits/${deposit_id}/receipt`,
      traderToken,
      { transaction_hash },
      { field: "receipt", name: "receipt.png", type: "image/png", bytes: receiptPng() },
    ),
    200,
    "uploading the receipt",
  );
  const approved = expectStatus(
    await api(platform, "POST", `/admin/deposits/${deposit_id}/approve`, { token: staffToken }),
    200,
    "approving the deposit",
  );
  if (approved.body.data.deposit.status === "under_review") {
    // Above the four-eyes threshold: a second admin gives the second approval.
    expectStatus(
      await api(platform, "POST", `/admin/deposits/${deposit_id}/approve`, {
        token: await secondAdminTokenByApi(platform),
      }),
      200,
      "giving the deposit its second approval",
    );
  }
}

/** An identity document uploaded by the trader and approved by staff. */
export async function approvedIdentityByApi(
  platform: TestPlatform,
  traderToken: string,
  staffToken: string,
): Promise<void> {
  const uploaded = expectStatus(
    await postForm(
      platform,
      "/upload-verification",
      traderToken,
      { id_type: "passport", accept_terms: "1" },
      { field: "file", name: "passport.pdf", type: "application/pdf", bytes: identityPdf() },
    ),
    201,
    "uploading the identity document",
  );
  const id = uploaded.body.data.verification.id as number;
  expectStatus(
    await api(platform, "POST", `/admin/verifications/${id}/approve`, { token: staffToken }),
    200,
    "approving the identity document",
  );
}
