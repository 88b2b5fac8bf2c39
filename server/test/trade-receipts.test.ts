import { spawnSync } from "node:child_process";
import { createPublicKey, verify } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson } from "@tp/domain/canonical-json";
import { recomputedSettlement } from "@tp/domain/trade-receipt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick } from "./support/prices.ts";

const verifyScript = fileURLToPath(new URL("../../tools/verify-receipt.mjs", import.meta.url));

/** Runs the standalone checker on a receipt (and the published keys) as anyone would. */
function runVerifier(signed: unknown, keys: unknown) {
  const folder = mkdtempSync(path.join(tmpdir(), "receipt-"));
  writeFileSync(path.join(folder, "receipt.json"), JSON.stringify(signed));
  writeFileSync(path.join(folder, "keys.json"), JSON.stringify(keys));
  const run = spawnSync(
    process.execPath,
    [verifyScript, path.join(folder, "receipt.json"), path.join(folder, "keys.json")],
    { encoding: "utf8" },
  );
  return { status: run.status, output: run.stdout + run.stderr };
}

/** Ed25519 check with nothing but the receipt and a published raw public key. */
function signatureHolds(
  signed: { receipt: unknown; signature: { value: string } },
  rawKey: string,
) {
  // SPKI DER of an Ed25519 key: a fixed 12-byte prefix, then the raw 32 bytes.
  const der = Buffer.concat([
    Buffer.from("302a300506032b6570032100", "hex"),
    Buffer.from(rawKey, "base64"),
  ]);
  const key = createPublicKey({ key: der, format: "der", type: "spki" });
  return verify(
    null,
    Buffer.from(canonicalJson(signed.receipt), "utf8"),
    key,
    Buffer.from(signed.signature.value, "base64"),
  );
}

describe("canonical JSON (RFC 8785)", () => {
  it("sorts members by UTF-16 code units and writes numbers as ECMAScript does", () => {
    // The RFC's own ordering example: "\u20ac" (€) sorts after "\r" and "1" but before "😀".
    expect(canonicalJson({ "€": 1, "\r": 2, "1": 3, "😀": 4, b: [1e21, 0.1, -0, null] })).toBe(
      '{"\\r":2,"1":3,"b":[1e+21,0.1,0,null],"€":1,"😀":4}',
    );
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
  });
});

describe.each(databaseKindsUnderTest())("signed trade receipts (issue 15 item 1) on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  it("signs a placement receipt and then a settlement receipt that verify against the published key", async () => {
    const trader = await signedInTrader(platform);
    await advanceWithTick(platform, "EURUSD", 1.1, 500);
    const placed = await http.post(
      "/api/v1/place-trade",
      { asset: "EURUSD", type: "call", amount: 10.01, duration: 30, is_practice: true },
      trader.token,
    );
    expect(placed.status, placed.text).toBe(201);
    const id = placed.body.data.trade.id;

    const keys = await http.get("/api/v1/receipts/keys");
    expect(keys.status).toBe(200);
    expect(keys.body.data.keys).toHaveLength(1);
    const [published] = keys.body.data.keys;
    expect(published.algorithm).toBe("Ed25519");

    const open = await http.get(`/api/v1/trades/${id}/receipt`, trader.token);
    expect(open.status, open.text).toBe(200);
    expect(open.headers.get("content-disposition")).toBe(
      `attachment; filename="trade-${id}-placement-receipt.json"`,
    );
    expect(open.body.receipt).toMatchObject({
      kind: "placement",
      trade: { id, direction: "call", stake_cents: 10_01, status: "open", exit: null },
    });
    expect(open.body.signature.key_id).toBe(published.key_id);
    expect(signatureHolds(open.body, published.public_key)).toBe(true);
    expect(recomputedSettlement(open.body.receipt.trade)).toBeNull();

    await advanceWithTick(platform, "EURUSD", 1.2, 30_000);
    await advanceWithTick(platform, "EURUSD", 1.2, 500);
    await platform.context.settlement.settleDue();
    const settled = await http.get(`/api/v1/trades/${id}/receipt`, trader.token);
    expect(settled.body.receipt.kind).toBe("settlement");
    expect(signatureHolds(settled.body, published.public_key)).toBe(true);
    // The outcome and credit follow from the receipt's own prices by the rule.
    expect(recomputedSettlement(settled.body.receipt.trade)).toEqual({
      status: settled.body.receipt.trade.status,
      credit_cents: settled.body.receipt.trade.credit_cents,
    });
    expect(settled.body.receipt.trade.status).toBe("won");
    expect(settled.body.receipt.trade.credit_cents).toBe(10_01 + 8_50);

    // One character changed anywhere, and the signature no longer holds.
    const tampered = structuredClone(settled.body);
    tampered.receipt.trade.exit.price = 1.19;
    expect(signatureHolds(tampered, published.public_key)).toBe(false);

    // The standalone script (tools/verify-receipt.mjs) says the same with nothing but Node.
    const good = runVerifier(settled.body, keys.body);
    expect(good.output).toContain(`Receipt of trade #${id} (settlement, rule version 1) verified.`);
    expect(good.status, good.output).toBe(0);
    const bad = runVerifier(tampered, keys.body);
    expect(bad.status, bad.output).toBe(1);
    expect(bad.output).toContain("FAILS   the signature holds");
    // A receipt whose credit was changed fails the rule's recomputation too.
    const forged = structuredClone(settled.body);
    forged.receipt.trade.credit_cents += 100;
    const other = runVerifier(forged, keys.body);
    expect(other.output).toContain("FAILS   the credit follows from the rule");
    expect(other.status).toBe(1);
  });

  it("gives a receipt only to the trade's owner", async () => {
    const owner = await signedInTrader(platform);
    const other = await signedInTrader(platform);
    await advanceWithTick(platform, "EURUSD", 1.1, 500);
    const placed = await http.post(
      "/api/v1/place-trade",
      { asset: "EURUSD", type: "put", amount: 5, duration: 30, is_practice: true },
      owner.token,
    );
    const path = `/api/v1/trades/${placed.body.data.trade.id}/receipt`;
    expect((await http.get(path, other.token)).status).toBe(404);
    expect((await http.get(path)).status).toBe(401);
    expect((await http.get("/api/v1/trades/abc/receipt", owner.token)).status).toBe(400);
  });
});
