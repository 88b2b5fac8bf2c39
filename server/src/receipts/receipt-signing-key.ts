import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";
import type { Queryable } from "../db/database.ts";

export const receipt_key_file = "receipt-signing-key.pem";

export interface ReceiptSigningKey {
  privateKey: KeyObject;
  /** The raw 32-byte public key, base64. */
  publicKey: string;
  /** The first 16 hex digits of the raw public key's SHA-256: names the key in a receipt. */
  keyId: string;
}

function fromPrivateKey(privateKey: KeyObject): ReceiptSigningKey {
  if (privateKey.asymmetricKeyType !== "ed25519") {
    throw new Error("RECEIPT_SIGNING_KEY must be an Ed25519 private key (PKCS #8 PEM)");
  }
  // The raw public key is the last 32 bytes of its SPKI DER form.
  const der = createPublicKey(privateKey).export({ type: "spki", format: "der" });
  const raw = der.subarray(der.length - 32);
  return {
    privateKey,
    publicKey: raw.toString("base64"),
    keyId: createHash("sha256").update(raw).digest("hex").slice(0, 16),
  };
}

/**
 * RECEIPT_SIGNING_KEY (an Ed25519 private key, PKCS #8 PEM), or else
 * DATA_DIR/receipt-signing-key.pem, generated there on first start (readable by the server's
 * user only). Two processes starting together on one DATA_DIR agree: the file is created
 * exclusively and the loser reads it (as with the ALTCHA and VAPID keys).
 */
export function loadReceiptSigningKey(config: Config, log: FastifyBaseLogger): ReceiptSigningKey {
  if (config.RECEIPT_SIGNING_KEY) {
    return fromPrivateKey(createPrivateKey(config.RECEIPT_SIGNING_KEY.replaceAll("\\n", "\n")));
  }
  const file = path.join(config.DATA_DIR, receipt_key_file);
  mkdirSync(config.DATA_DIR, { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const { privateKey } = generateKeyPairSync("ed25519");
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }) as string;
    writeFileSync(temporary, pem, { flag: "wx", mode: 0o600 });
    linkSync(temporary, file);
    log.info({ file }, "generated the receipt signing key");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return fromPrivateKey(createPrivateKey(readFileSync(file, "utf8")));
}

/** Publishes the key this process signs with (once; a key keeps its first use). */
export async function registerReceiptSigningKey(
  queryable: Queryable,
  key: ReceiptSigningKey,
  at: Date,
): Promise<void> {
  await queryable.query(
    `INSERT INTO receipt_signing_keys (key_id, public_key, first_used_at) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [key.keyId, key.publicKey, at],
  );
}

export async function publishedReceiptKeys(
  queryable: Queryable,
): Promise<Array<{ key_id: string; public_key: string; first_used_at: string }>> {
  const result = await queryable.query<{ key_id: string; public_key: string; first_used_at: Date }>(
    "SELECT key_id, public_key, first_used_at FROM receipt_signing_keys ORDER BY first_used_at, key_id",
  );
  return result.rows.map((row) => ({
    key_id: row.key_id,
    public_key: row.public_key,
    first_used_at: row.first_used_at.toISOString(),
  }));
}
