import { createHmac, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { altcha_payload_length_max } from "@tp/domain/validation";
import { createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Queryable } from "../db/database.ts";

/**
 * Self-hosted ALTCHA proof of work (altcha-lib v2): what a sign-in, forgot-password or resend
 * must carry once its account has seen too many attempts, instead of being refused. It costs
 * a browser about half a second and an attacker that much per guess, and never locks the owner
 * out. Each solved challenge is good for one request within `challenge_lifetime_ms`.
 */
export const challenge_lifetime_ms = 10 * 60 * 1000;
const algorithm = "PBKDF2/SHA-256";
/** PBKDF2 iterations per try, and the range of tries the solution lies in. */
const cost_iterations = 1_000;
const counter_min = 1_000;
const counter_max = 2_000;
/** Bound on the payload a client may send (a challenge and its solution, base64 JSON). */
export const payload_length_max = altcha_payload_length_max;

export const altcha_key_file = "altcha-hmac-key";

export interface ProofOfWorkChallenge {
  parameters: Record<string, unknown>;
  signature?: string;
}

export class ProofOfWork {
  readonly #signatureSecret: string;
  readonly #keySignatureSecret: string;
  readonly #clock: Clock;

  constructor(hmacKey: string, clock: Clock) {
    this.#signatureSecret = hmacKey;
    // A second secret signs the derived key, so the server verifies without re-deriving it.
    this.#keySignatureSecret = createHmac("sha256", hmacKey)
      .update("altcha key signature")
      .digest("hex");
    this.#clock = clock;
  }

  /**
   * A new challenge. Its expiry is our clock's, carried in the signed `data` rather than in
   * altcha's `expiresAt`, which altcha-lib checks against the system clock.
   */
  async create(): Promise<ProofOfWorkChallenge> {
    const expiresAtMs = this.#clock.now().getTime() + challenge_lifetime_ms;
    const challenge = await createChallenge({
      algorithm,
      cost: cost_iterations,
      counter: randomInt(counter_min, counter_max),
      deriveKey,
      data: { expires_at_ms: expiresAtMs },
      hmacSignatureSecret: this.#signatureSecret,
      hmacKeySignatureSecret: this.#keySignatureSecret,
    });
    return challenge as unknown as ProofOfWorkChallenge;
  }

  /**
   * True when `payload` (the widget's base64 JSON of challenge and solution) solves a
   * challenge we signed, not yet expired and not used before; the challenge is then spent
   * in `queryable`. Anything malformed is simply not a solution.
   */
  async redeem(queryable: Queryable, payload: string): Promise<boolean> {
    if (payload.length === 0 || payload.length > payload_length_max) return false;
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
    } catch {
      return false;
    }
    const challenge = (decoded as { challenge?: unknown })?.challenge as
      | { parameters?: { data?: { expires_at_ms?: unknown } }; signature?: unknown }
      | undefined;
    const solution = (decoded as { solution?: unknown })?.solution;
    if (
      typeof challenge !== "object" ||
      challenge === null ||
      typeof challenge.signature !== "string" ||
      typeof solution !== "object" ||
      solution === null
    ) {
      return false;
    }
    const expiresAtMs = challenge.parameters?.data?.expires_at_ms;
    const nowMs = this.#clock.now().getTime();
    if (typeof expiresAtMs !== "number" || expiresAtMs <= nowMs) return false;
    let verified = false;
    try {
      const result = await verifySolution({
        challenge: challenge as never,
        solution: solution as never,
        deriveKey,
        hmacSignatureSecret: this.#signatureSecret,
        hmacKeySignatureSecret: this.#keySignatureSecret,
      });
      verified = result.verified;
    } catch {
      return false;
    }
    // The expiry was inside the signed parameters, so it is ours once the signature holds.
    if (!verified) return false;
    return spend(queryable, challenge.signature, new Date(expiresAtMs), new Date(nowMs));
  }
}

/** Records a solved challenge; false when it was spent before (a replay). */
async function spend(
  queryable: Queryable,
  signature: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  // Forget expired ones as we go: they cannot be replayed anyway (their expiry is signed).
  await queryable.query("DELETE FROM spent_proof_of_work WHERE expires_at <= $1", [now]);
  const inserted = await queryable.query(
    `INSERT INTO spent_proof_of_work (signature, expires_at) VALUES ($1, $2)
     ON CONFLICT (signature) DO NOTHING`,
    [signature, expiresAt],
  );
  return inserted.rowCount === 1;
}

/**
 * ALTCHA_HMAC_KEY, or else DATA_DIR/altcha-hmac-key, made there on first start (readable by
 * the server's user only). Two processes starting together on one DATA_DIR agree: the file is
 * created exclusively and the loser reads it (as with the VAPID keys).
 */
export function loadAltchaHmacKey(config: Config, log: FastifyBaseLogger): string {
  if (config.ALTCHA_HMAC_KEY) return config.ALTCHA_HMAC_KEY;
  const file = path.join(config.DATA_DIR, altcha_key_file);
  mkdirSync(config.DATA_DIR, { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
    linkSync(temporary, file);
    log.info({ file }, "generated the ALTCHA HMAC key");
    if (config.REDIS_URL) {
      log.warn(
        "the ALTCHA HMAC key was generated in this process's DATA_DIR: give every process the " +
          "same ALTCHA_HMAC_KEY (or one DATA_DIR), or challenges from one are refused by another",
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  const key = readFileSync(file, "utf8").trim();
  if (key.length < 32) throw new Error(`${file}: expected a key of at least 32 characters`);
  return key;
}
