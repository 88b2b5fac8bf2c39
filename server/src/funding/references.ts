import { randomInt } from "node:crypto";

/**
 * The reference a trader writes in the payment memo (`transaction_hash` of SPEC §3): made
 * by the server, unguessable, easy to read aloud and type (no 0/O, 1/I/L).
 */
const reference_alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const reference_length = 12;

export function newTransactionReference(prefix: "DEP" | "WDR"): string {
  let code = "";
  for (let index = 0; index < reference_length; index++) {
    code += reference_alphabet[randomInt(reference_alphabet.length)];
  }
  return `${prefix}-${code}`;
}
