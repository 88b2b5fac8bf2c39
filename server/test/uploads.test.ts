import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fundingMessages as f } from "@tp/domain/funding";
import { upload_bytes_max } from "@tp/domain/funding-files";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../src/config.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { prepareUploadsDirectory } from "../src/uploads/upload-store.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  configurePaymentMethods,
  type FilePart,
  gifBytes,
  htmlBytes,
  jpegBytes,
  pdfBytes,
  pngBytes,
  postForm,
  staffToken,
  startFundingPlatform,
  webpBytes,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

describe.each(databaseKindsUnderTest())("uploads on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;
  let uploadsDir: string;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
    uploadsDir = path.join(platform.context.config.DATA_DIR, "uploads");
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
    // Nothing half-received is ever left behind.
    expect(readdirSync(path.join(uploadsDir, ".incoming"))).toEqual([]);
  });

  async function newDeposit() {
    const trader = await signedInTrader(platform);
    const created = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount: 10 },
      trader.token,
    );
    const { deposit_id, transaction_hash } = created.body.data;
    const send = (file: FilePart | null, token = trader.token) =>
      postForm(
        platform.baseUrl,
        `/api/v1/deposits/${deposit_id}/receipt`,
        { transaction_hash },
        file,
        token,
      );
    const status = async () =>
      (await http.get(`/api/v1/deposits/${deposit_id}`, trader.token)).body.data.deposit.status;
    return { trader, id: deposit_id as number, send, status };
  }

  async function storedFiles() {
    return readdirSync(uploadsDir).filter((name) => name !== ".incoming");
  }

  it("decides the type by content, not by the name or the claimed type", async () => {
    const deposit = await newDeposit();
    const before = await storedFiles();
    for (const file of [
      { field: "receipt", bytes: htmlBytes(), name: "receipt.png", type: "image/png" },
      { field: "receipt", bytes: gifBytes(), name: "receipt.jpg", type: "image/jpeg" },
      { field: "receipt", bytes: new TextEncoder().encode("%PD"), name: "x.pdf" },
    ]) {
      const reply = await deposit.send(file);
      expect(reply.status, file.name).toBe(422);
      expect(reply.body.errors.receipt, file.name).toEqual([f.receiptType]);
    }
    expect(await deposit.status()).toBe("awaiting_payment");
    expect(await storedFiles()).toEqual(before);

    // A PDF named .exe and sent as text/html is still a PDF, and is kept as one.
    const pdf = await deposit.send({
      field: "receipt",
      bytes: pdfBytes(),
      name: "invoice.exe",
      type: "text/html",
    });
    expect(pdf.status).toBe(200);
    const stored = await platform.database.query<{ content_type: string; storage_name: string }>(
      "SELECT content_type, storage_name FROM uploads u JOIN deposits d ON d.receipt_upload_id = u.id WHERE d.id = $1",
      [deposit.id],
    );
    expect(stored.rows[0]!.content_type).toBe("application/pdf");
    expect(stored.rows[0]!.storage_name).toMatch(/^[0-9a-f]{32}\.pdf$/);

    // Identity documents take JPG, PNG or PDF only: WebP (a fine receipt) is refused there.
    const trader = await signedInTrader(platform);
    const webp = await postForm(
      platform.baseUrl,
      "/api/v1/upload-verification",
      { accept_terms: "1" },
      { field: "file", bytes: webpBytes(), name: "id.webp" },
      trader.token,
    );
    expect(webp.status).toBe(422);
    expect(webp.body.message).toBe(f.identityFileType);
    const receiptWebp = await (await newDeposit()).send({
      field: "receipt",
      bytes: webpBytes(),
      name: "r.webp",
    });
    expect(receiptWebp.status).toBe(200);
    const empty = await (await newDeposit()).send({
      field: "receipt",
      bytes: new Uint8Array(0),
      name: "empty.png",
    });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.receipt).toEqual([f.receiptRequired]);
  });

  it("takes exactly 10 MB and refuses 10 MB + 1 byte with 413", async () => {
    const atLimit = await newDeposit();
    const accepted = await atLimit.send({
      field: "receipt",
      bytes: jpegBytes(upload_bytes_max),
      name: "big.jpg",
    });
    expect(accepted.status).toBe(200);
    // Re-encoded: the 10 MB of filler after the image's end is not kept, only the image.
    const sizes = await platform.database.query<{ size_bytes: number }>(
      "SELECT size_bytes FROM uploads u JOIN deposits d ON d.receipt_upload_id = u.id WHERE d.id = $1",
      [atLimit.id],
    );
    expect(sizes.rows[0]!.size_bytes).toBeGreaterThan(0);
    expect(sizes.rows[0]!.size_bytes).toBeLessThan(10_000);

    const overLimit = await newDeposit();
    const before = await storedFiles();
    const refused = await overLimit.send({
      field: "receipt",
      bytes: jpegBytes(upload_bytes_max + 1),
      name: "big.jpg",
    });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ message: f.fileTooLarge, code: "BODY_TOO_LARGE" });
    expect(await overLimit.status()).toBe("awaiting_payment");
    expect(await storedFiles()).toEqual(before);

    const trader = await signedInTrader(platform);
    const identity = await postForm(
      platform.baseUrl,
      "/api/v1/upload-verification",
      { accept_terms: "1" },
      { field: "file", bytes: pngBytes(upload_bytes_max + 1), name: "id.png" },
      trader.token,
    );
    expect(identity.status).toBe(413);
    expect(identity.body.message).toBe(f.fileTooLarge);
  });

  it("keeps hostile file names harmless: server-made names on disk and in downloads", async () => {
    const hostile = [
      "../../../../etc/passwd.png",
      "..\\..\\windows\\win.ini.png",
      'x"; filename="evil.html.png',
      "<img src=x onerror=alert(1)>.png",
      `${"A".repeat(5000)}.png`,
      "\u202Egnp.exe",
    ];
    for (const name of hostile) {
      const deposit = await newDeposit();
      const reply = await deposit.send({ field: "receipt", bytes: pngBytes(), name });
      expect(reply.status, name).toBe(200);
      const row = await platform.database.query<{
        storage_name: string;
        original_name: string | null;
      }>(
        "SELECT storage_name, original_name FROM uploads u JOIN deposits d ON d.receipt_upload_id = u.id WHERE d.id = $1",
        [deposit.id],
      );
      const { storage_name, original_name } = row.rows[0]!;
      expect(storage_name).toMatch(/^[0-9a-f]{32}\.png$/);
      expect(existsSync(path.join(uploadsDir, storage_name))).toBe(true);
      const unsafe = [...(original_name ?? "")].filter(
        (character) => character === "/" || character === "\\" || character.charCodeAt(0) < 32,
      );
      expect(unsafe).toEqual([]);
      expect((original_name ?? "").length).toBeLessThanOrEqual(200);

      const download = await fetch(`${platform.baseUrl}/api/v1/deposits/${deposit.id}/receipt`, {
        headers: { authorization: `Bearer ${deposit.trader.token}` },
      });
      expect(download.status).toBe(200);
      expect(download.headers.get("content-disposition")).toBe(
        `attachment; filename="receipt-${deposit.id}.png"`,
      );
      await download.arrayBuffer();
    }
    // Nothing was written outside the uploads folder: only server-made names inside it.
    for (const name of await storedFiles())
      expect(name).toMatch(/^[0-9a-f]{32}\.(jpg|png|webp|pdf)$/);
    expect(existsSync(path.join(platform.context.config.DATA_DIR, "etc"))).toBe(false);
  });

  it("serves a file only to its owner and staff, as an attachment that cannot run", async () => {
    const deposit = await newDeposit();
    await deposit.send({ field: "receipt", bytes: pngBytes(300), name: "r.png" });
    const path_ = `/api/v1/deposits/${deposit.id}/receipt`;
    // What is served is what was kept: the re-encoded image, not the bytes sent.
    const kept = await platform.database.query<{ storage_name: string }>(
      "SELECT storage_name FROM uploads u JOIN deposits d ON d.receipt_upload_id = u.id WHERE d.id = $1",
      [deposit.id],
    );
    const bytes = new Uint8Array(readFileSync(path.join(uploadsDir, kept.rows[0]!.storage_name)));
    expect(Buffer.from(bytes.subarray(0, 8))).toEqual(Buffer.from(pngBytes().subarray(0, 8)));

    const owner = await fetch(`${platform.baseUrl}${path_}`, {
      headers: { authorization: `Bearer ${deposit.trader.token}` },
    });
    expect(owner.status).toBe(200);
    expect(owner.headers.get("content-type")).toBe("image/png");
    expect(owner.headers.get("x-content-type-options")).toBe("nosniff");
    expect(owner.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(owner.headers.get("cache-control")).toBe("private, no-store");
    expect(new Uint8Array(await owner.arrayBuffer())).toEqual(bytes);

    const staffCopy = await fetch(
      `${platform.baseUrl}/api/v1/admin/deposits/${deposit.id}/receipt`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(staffCopy.status).toBe(200);
    expect(new Uint8Array(await staffCopy.arrayBuffer())).toEqual(bytes);

    const other = await signedInTrader(platform);
    expect((await http.get(path_, other.token)).status).toBe(404);
    expect(
      (await http.get(`/api/v1/admin/deposits/${deposit.id}/receipt`, other.token)).status,
    ).toBe(403);
    expect((await http.get(path_)).status).toBe(401);

    // The folder is not served: asking the web server for a stored name never returns it.
    const stored = await platform.database.query<{ storage_name: string }>(
      "SELECT storage_name FROM uploads u JOIN deposits d ON d.receipt_upload_id = u.id WHERE d.id = $1",
      [deposit.id],
    );
    const name = stored.rows[0]!.storage_name;
    for (const guess of [`/uploads/${name}`, `/data/uploads/${name}`, `/${name}`]) {
      const reply = await fetch(`${platform.baseUrl}${guess}`);
      const body = new Uint8Array(await reply.arrayBuffer());
      expect(Buffer.from(body).includes(Buffer.from(bytes.subarray(0, 8)))).toBe(false);
    }
    expect(readFileSync(path.join(uploadsDir, name))).toEqual(Buffer.from(bytes));
  });

  it("refuses malformed and oversized forms with a message, never a 500", async () => {
    const deposit = await newDeposit();
    const url = `${platform.baseUrl}/api/v1/deposits/${deposit.id}/receipt`;
    const headers = { authorization: `Bearer ${deposit.trader.token}` };

    const longField = await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${deposit.id}/receipt`,
      { transaction_hash: "x".repeat(5000) },
      { field: "receipt", bytes: pngBytes(), name: "r.png" },
      deposit.trader.token,
    );
    expect(longField.status).toBe(413);

    const twoFiles = new FormData();
    twoFiles.append("receipt", new Blob([pngBytes() as Uint8Array<ArrayBuffer>]), "a.png");
    twoFiles.append("receipt", new Blob([pngBytes() as Uint8Array<ArrayBuffer>]), "b.png");
    const two = await fetch(url, { method: "POST", body: twoFiles, headers });
    expect(two.status).toBe(413);
    expect(((await two.json()) as { message: string }).message).toBe("Send one file only");

    const truncated = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "multipart/form-data; boundary=XYZ" },
      body: '--XYZ\r\nContent-Disposition: form-data; name="receipt"; filename="a.png"\r\n\r\n\x89PNG',
    });
    expect(truncated.status).toBe(400);
    expect(((await truncated.json()) as { status: string }).status).toBe("error");

    const noBoundary = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "multipart/form-data" },
      body: "nothing",
    });
    expect([400, 415]).toContain(noBoundary.status);

    const anonymous = await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${deposit.id}/receipt`,
      {},
      { field: "receipt", bytes: pngBytes(), name: "r.png" },
    );
    expect(anonymous.status).toBe(401);
    expect(await deposit.status()).toBe("awaiting_payment");
  });

  it("refuses to keep uploads inside the served web folder", () => {
    const web = path.join(platform.context.config.DATA_DIR, "..", "web-root");
    expect(() => prepareUploadsDirectory(path.join(web, "data"), web)).toThrow(ConfigError);
    expect(() => prepareUploadsDirectory(web, web)).toThrow(ConfigError);
  });
});
