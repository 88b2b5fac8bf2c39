import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
} from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Test support: a push service on 127.0.0.1 that does what a browser vendor's does with a
 * Web Push request, independently of the server's code: it checks the VAPID authorization
 * (RFC 8292: `vapid t=<JWT>, k=<public key>`, an ES256 JWT whose audience is this service's
 * origin), and hands the body to the "browser", which decrypts it (RFC 8291 / RFC 8188
 * aes128gcm) with the private key and auth secret it made when it subscribed.
 */

/** A browser's push subscription: a real P-256 key pair and auth secret, as a browser makes. */
export interface FakeBrowser {
  id: string;
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  privateKey: Buffer;
  publicKey: Buffer;
  authSecret: Buffer;
}

export interface ReceivedPush {
  browserId: string;
  /** What the service answered. */
  status: number;
  headers: IncomingMessage["headers"];
  /** The VAPID JWT's verified claims and public key, or why it failed. */
  vapid: { claims: Record<string, unknown>; publicKey: string } | { error: string };
  /** The decrypted payload, or why decryption failed. */
  plaintext: string | null;
  decryptError: string | null;
}

/** RFC 8188 §2.1 / RFC 8291 §4: salt(16) rs(4) idlen(1) keyid(65: the sender's public key). */
export function decryptAes128gcm(
  body: Buffer,
  receiver: { privateKey: Buffer; publicKey: Buffer; authSecret: Buffer },
): string {
  if (body.length < 21) throw new Error("body shorter than the aes128gcm header");
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  if (idLength !== 65) throw new Error(`keyid must be a 65-byte P-256 key, got ${idLength}`);
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error("more than one record");
  if (ciphertext.length < 17) throw new Error("record shorter than its tag");

  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(receiver.privateKey);
  const sharedSecret = ecdh.computeSecret(senderPublic);
  // RFC 8291 §3.4: IKM from the auth secret and "WebPush: info" || ua_public || as_public.
  const keyInfo = Buffer.concat([
    Buffer.from("WebPush: info\0", "latin1"),
    receiver.publicKey,
    senderPublic,
  ]);
  const ikm = Buffer.from(hkdfSync("sha256", sharedSecret, receiver.authSecret, keyInfo, 32));
  const cek = Buffer.from(
    hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0", "latin1"), 16),
  );
  const nonce = Buffer.from(
    hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0", "latin1"), 12),
  );
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record's padding: a 0x02 delimiter, then zero or more zero bytes.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (end < 0 || padded[end] !== 0x02) throw new Error("missing the last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

/** RFC 8292 §2, §3: verifies `vapid t=…, k=…` for `audience`; returns the claims and key. */
export function verifyVapid(
  authorization: string | undefined,
  audience: string,
  nowSeconds: number,
): { claims: Record<string, unknown>; publicKey: string } {
  const match = /^vapid (.+)$/.exec(authorization ?? "");
  if (!match) throw new Error(`Authorization is not vapid: ${authorization}`);
  const parameters = Object.fromEntries(
    match[1]!.split(",").map((part) => {
      const [name, ...value] = part.trim().split("=");
      return [name!, value.join("=")];
    }),
  );
  const token = parameters.t;
  const key = parameters.k;
  if (!token || !key) throw new Error("vapid needs t and k");
  const [headerPart, claimsPart, signaturePart] = token.split(".");
  if (!headerPart || !claimsPart || !signaturePart) throw new Error("t is not a JWS");
  const header = JSON.parse(Buffer.from(headerPart, "base64url").toString("utf8"));
  if (header.alg !== "ES256") throw new Error(`alg must be ES256, got ${header.alg}`);
  const point = Buffer.from(key, "base64url");
  if (point.length !== 65 || point[0] !== 0x04) throw new Error("k is not an uncompressed point");
  const publicKey = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const signature = Buffer.from(signaturePart, "base64url");
  if (signature.length !== 64) throw new Error("an ES256 signature is 64 bytes (r||s)");
  const valid = verify(
    "sha256",
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    signature,
  );
  if (!valid) throw new Error("bad VAPID signature");
  const claims = JSON.parse(Buffer.from(claimsPart, "base64url").toString("utf8"));
  if (claims.aud !== audience) throw new Error(`aud ${claims.aud} is not ${audience}`);
  if (typeof claims.exp !== "number" || claims.exp <= nowSeconds) throw new Error("expired");
  if (claims.exp > nowSeconds + 24 * 60 * 60) throw new Error("exp more than 24 h ahead");
  if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub)) {
    throw new Error(`sub must be mailto: or https:, got ${claims.sub}`);
  }
  return { claims, publicKey: key };
}

export class FakePushService {
  readonly received: ReceivedPush[] = [];
  readonly #browsers = new Map<string, FakeBrowser>();
  /** What the service answers for a browser (201 when unset): 410 means unsubscribed. */
  readonly #answers = new Map<string, number>();
  #server: Server | null = null;
  origin = "";

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const id = /^\/push\/([a-z0-9]+)$/.exec(request.url ?? "")?.[1] ?? "";
        const browser = this.#browsers.get(id);
        const body = Buffer.concat(chunks);
        let vapid: ReceivedPush["vapid"];
        try {
          vapid = verifyVapid(
            request.headers.authorization,
            this.origin,
            Math.floor(Date.now() / 1000),
          );
        } catch (error) {
          vapid = { error: String(error) };
        }
        let plaintext: string | null = null;
        let decryptError: string | null = null;
        if (browser) {
          try {
            if (request.headers["content-encoding"] !== "aes128gcm") {
              throw new Error(`Content-Encoding ${request.headers["content-encoding"]}`);
            }
            plaintext = decryptAes128gcm(body, browser);
          } catch (error) {
            decryptError = String(error);
          }
        }
        const status =
          request.method !== "POST" || !browser
            ? 404
            : "error" in vapid
              ? 403
              : decryptError
                ? 400
                : (this.#answers.get(id) ?? 201);
        this.received.push({
          browserId: id,
          status,
          headers: request.headers,
          vapid,
          plaintext,
          decryptError,
        });
        response.statusCode = status;
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
  }

  /** A new browser subscribing: its own key pair and auth secret, and its endpoint here. */
  newBrowser(): FakeBrowser {
    const id = randomBytes(8).toString("hex");
    const ecdh = createECDH("prime256v1");
    const publicKey = ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const browser: FakeBrowser = {
      id,
      subscription: {
        endpoint: `${this.origin}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: publicKey.toString("base64url"), auth: authSecret.toString("base64url") },
      },
      privateKey: ecdh.getPrivateKey(),
      publicKey,
      authSecret,
    };
    this.#browsers.set(id, browser);
    return browser;
  }

  /** From now on, answer pushes to this browser with `status` (410: the user unsubscribed). */
  answer(browser: FakeBrowser, status: number) {
    this.#answers.set(browser.id, status);
  }

  of(browser: FakeBrowser): ReceivedPush[] {
    return this.received.filter((push) => push.browserId === browser.id);
  }

  /** Waits (bounded) until `count` pushes reached this browser. */
  async waitFor(browser: FakeBrowser, count = 1, timeoutMs = 8_000): Promise<ReceivedPush[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pushes = this.of(browser);
      if (pushes.length >= count) return pushes;
      if (Date.now() > deadline) {
        throw new Error(`expected ${count} pushes, got ${JSON.stringify(this.received)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}
