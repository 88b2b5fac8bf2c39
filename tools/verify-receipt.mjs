#!/usr/bin/env node
// Checks a trade receipt with nothing but Node (issue 15 item 2):
//   node tools/verify-receipt.mjs receipt.json [keys.json]
// 1. the Ed25519 signature over the receipt's RFC 8785 canonical form, with the public key
//    the receipt names; with keys.json (the reply of GET /api/v1/receipts/keys, saved), also
//    that this key is one the platform published;
// 2. the outcome and credit recomputed from the receipt's own prices by the published rule
//    (domain/src/trade-receipt.ts `recomputedSettlement`; the few lines below are the same).
// Prints what holds and what does not; exits 0 only when everything holds.
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

// RFC 8785: members sorted by UTF-16 code units, numbers and strings as JSON.stringify.
function canonicalJson(value) {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new Error("non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(",")}}`;
}

// The rule (PRODUCT.md D1, /rules): refunds pay back the stake; call wins above the entry
// price, put below, equal prices tie; a win pays stake + floor(stake × payout % / 100).
function recomputed(trade) {
  if (trade.status === "open") return null;
  if (trade.refund_reason !== null || trade.exit === null) {
    return { status: "tie", credit_cents: trade.stake_cents };
  }
  const { price: entry } = trade.entry;
  const { price: exit } = trade.exit;
  const status =
    exit === entry ? "tie" : exit > entry === (trade.direction === "call") ? "won" : "lost";
  const profit = Math.floor((trade.stake_cents * trade.payout_percent) / 100);
  const credit_cents =
    status === "won" ? trade.stake_cents + profit : status === "tie" ? trade.stake_cents : 0;
  return { status, credit_cents };
}

const [receiptFile, keysFile] = process.argv.slice(2);
if (!receiptFile) {
  console.error("usage: node tools/verify-receipt.mjs receipt.json [keys.json]");
  process.exit(2);
}
const results = [];
const check = (holds, what) => results.push({ holds, what });
let signed;
try {
  signed = JSON.parse(readFileSync(receiptFile, "utf8"));
} catch (error) {
  console.error(`${receiptFile}: not a JSON file (${error.message})`);
  process.exit(2);
}
const { receipt, signature } = signed ?? {};
if (!receipt || !signature) {
  console.error(`${receiptFile}: no "receipt" and "signature" in it`);
  process.exit(2);
}

const raw = Buffer.from(signature.public_key ?? "", "base64");
check(raw.length === 32, "the public key is a 32-byte Ed25519 key");
const keyId = createHash("sha256").update(raw).digest("hex").slice(0, 16);
check(keyId === signature.key_id, `the key id ${signature.key_id} names that key`);
if (raw.length === 32) {
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]);
  const key = createPublicKey({ key: spki, format: "der", type: "spki" });
  const valid = verify(
    null,
    Buffer.from(canonicalJson(receipt), "utf8"),
    key,
    Buffer.from(signature.value ?? "", "base64"),
  );
  check(valid, "the signature holds: the receipt is exactly what the platform signed");
}
if (keysFile) {
  const published = JSON.parse(readFileSync(keysFile, "utf8"));
  const keys = published.data?.keys ?? published.keys ?? [];
  check(
    keys.some((k) => k.key_id === signature.key_id && k.public_key === signature.public_key),
    "the key is one the platform published",
  );
}
const trade = receipt.trade;
const expected = recomputed(trade);
if (expected === null) {
  check(trade.credit_cents === null, "the trade is open: no outcome or credit yet");
} else {
  check(
    expected.status === trade.status,
    `the outcome follows from the prices: ${expected.status} (receipt: ${trade.status})`,
  );
  check(
    expected.credit_cents === trade.credit_cents,
    `the credit follows from the rule: ${expected.credit_cents} cents (receipt: ${trade.credit_cents})`,
  );
}

for (const { holds, what } of results) console.log(`${holds ? "holds  " : "FAILS  "} ${what}`);
const ok = results.every((r) => r.holds);
console.log(
  ok
    ? `Receipt of trade #${trade.id} (${receipt.kind}, rule version ${receipt.rule_version}) verified.`
    : `Receipt of trade #${trade.id} does NOT verify.`,
);
process.exit(ok ? 0 : 1);
