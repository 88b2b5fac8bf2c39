import { hash, randomBytes } from "node:crypto";

/** 256 random bits, URL-safe. Only its SHA-256 is stored, so a database leak yields no token. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashOpaqueToken(token) };
}

export function hashOpaqueToken(token: string): string {
  // One-shot: a third of createHash's cost, once per authenticated request.
  return hash("sha256", token, "hex");
}
