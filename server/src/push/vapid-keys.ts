import { createECDH, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";

/** The application server's VAPID identity (RFC 8292): a P-256 key pair and a contact. */
export interface VapidKeys {
  /** Uncompressed P-256 point, base64url: what browsers get as applicationServerKey. */
  publicKey: string;
  /** The private scalar, base64url. Never leaves the server. */
  privateKey: string;
  subject: string;
}

export const vapid_key_file = "vapid-keys.json";

/** A fresh P-256 key pair in the encodings Web Push uses. */
export function generateVapidKeyPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString("base64url"),
    // A scalar with leading zero bytes comes out shorter: pad it back to 32.
    privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
      .subarray(-32)
      .toString("base64url"),
  };
}

/** Throws unless `publicKey` is the public half of `privateKey`. */
function assertKeyPair(publicKey: string, privateKey: string, where: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
  if (ecdh.getPublicKey().toString("base64url") !== publicKey) {
    throw new Error(`${where}: the VAPID public key is not the one of the private key`);
  }
}

/** MAIL_FROM "Name <address>" (or a bare address) → mailto:address. */
function subjectFromMailFrom(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}

/**
 * The keys from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, or else from DATA_DIR/vapid-keys.json,
 * made there on first start (readable by the server's user only). Two processes starting
 * together on one DATA_DIR agree: the file is created exclusively and the loser reads it.
 */
export function loadVapidKeys(config: Config, log: FastifyBaseLogger): VapidKeys {
  const subject = config.VAPID_SUBJECT ?? subjectFromMailFrom(config.MAIL_FROM);
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    assertKeyPair(config.VAPID_PUBLIC_KEY, config.VAPID_PRIVATE_KEY, "VAPID_PRIVATE_KEY");
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
  }
  const file = path.join(config.DATA_DIR, vapid_key_file);
  mkdirSync(config.DATA_DIR, { recursive: true });
  // Written whole under a temporary name, then linked into place: link fails if the file
  // exists, so a reader never sees half a file and the first writer wins.
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const made = generateVapidKeyPair();
    writeFileSync(temporary, `${JSON.stringify(made, null, 2)}\n`, { flag: "wx", mode: 0o600 });
    linkSync(temporary, file);
    log.info({ file }, "generated the Web Push (VAPID) keys");
    if (config.REDIS_URL) {
      log.warn(
        "VAPID keys were generated in this process's DATA_DIR: give every process the same " +
          "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (or one DATA_DIR), or pushes will be refused",
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  const stored = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  if (typeof stored.publicKey !== "string" || typeof stored.privateKey !== "string") {
    throw new Error(`${file}: expected {"publicKey": "…", "privateKey": "…"}`);
  }
  assertKeyPair(stored.publicKey, stored.privateKey, file);
  return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
}
