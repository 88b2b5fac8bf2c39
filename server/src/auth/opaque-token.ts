import { createHash, randomBytes } from "node:crypto";

/** 256 random bits, URL-safe. Only its SHA-256 is stored, so a database leak yields no token. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashOpaqueToken(token) };
}

export function hashOpaqueToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
