import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { fireEvent, screen, within } from "@testing-library/react";
import { canonicalJson } from "@tp/domain/canonical-json";
import { receipt_format, type SignedTradeReceipt } from "@tp/domain/trade-receipt";
import { describe, expect, it } from "vitest";
import { success } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

/** A receipt signed here with a fresh Ed25519 key, as the server signs one. */
function signedReceipt(): { signed: SignedTradeReceipt; keys: unknown } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const der = publicKey.export({ type: "spki", format: "der" });
  const raw = der.subarray(der.length - 32);
  const key_id = createHash("sha256").update(raw).digest("hex").slice(0, 16);
  const receipt: SignedTradeReceipt["receipt"] = {
    format: receipt_format,
    kind: "settlement",
    issued_at: "2026-01-15T12:01:00.000Z",
    rule_version: 1,
    trade: {
      id: 42,
      account: "real",
      asset: "EURUSD",
      direction: "call",
      stake_cents: 10_01,
      payout_percent: 85,
      received_at: "2026-01-15T11:59:59.990Z",
      accepted_at: "2026-01-15T12:00:00.000Z",
      expires_at: "2026-01-15T12:00:30.000Z",
      entry: { at: "2026-01-15T11:59:59.750Z", price: 1.08, source: "simulated" },
      exit: { at: "2026-01-15T12:00:29.900Z", price: 1.0801, source: "simulated" },
      ticks_around_entry: [{ at: "2026-01-15T11:59:59.750Z", price: 1.08 }],
      ticks_around_expiry: [{ at: "2026-01-15T12:00:29.900Z", price: 1.0801 }],
      status: "won",
      refund_reason: null,
      credit_cents: 10_01 + 8_50,
      settled_at: "2026-01-15T12:00:31.000Z",
    },
  };
  const value = sign(null, Buffer.from(canonicalJson(receipt)), privateKey).toString("base64");
  const public_key = raw.toString("base64");
  return {
    signed: { receipt, signature: { algorithm: "Ed25519", key_id, public_key, value } },
    keys: success({
      keys: [{ key_id, algorithm: "Ed25519", public_key, first_used_at: "2026-01-01T00:00:00Z" }],
    }),
  };
}

async function verify(text: string, keys: unknown) {
  const view = renderApp("/verify", { "GET /receipts/keys": keys as never });
  await screen.findByRole("heading", { level: 1, name: "Verify a trade receipt" });
  fireEvent.change(screen.getByLabelText("Receipt"), { target: { value: text } });
  await view.user.click(screen.getByRole("button", { name: "Verify" }));
  return screen.findByRole("region", { name: /Receipt of trade|Not checked/ });
}

describe("the public receipt check (issue 15 item 2)", () => {
  it("verifies a receipt the platform signed, and names every check", async () => {
    const { signed, keys } = signedReceipt();
    const result = await verify(JSON.stringify(signed, null, 2), keys);
    expect(within(result).getByRole("heading")).toHaveTextContent("Receipt of trade #42 verified");
    expect(result).toHaveTextContent("HoldsThe signature holds");
    expect(result).toHaveTextContent("HoldsThe credit follows from the rule: 1851 cents");
  });

  it("says which part fails when one character is changed", async () => {
    const { signed, keys } = signedReceipt();
    const changed = JSON.stringify(signed).replace('"price":1.0801', '"price":1.0799');
    const result = await verify(changed, keys);
    expect(within(result).getByRole("heading")).toHaveTextContent("does not verify");
    expect(result).toHaveTextContent("FailsThe signature does not hold");
    expect(result).toHaveTextContent("FailsThe outcome follows from the prices by the rule: lost");
  });

  it("refuses what is not a receipt, plainly", async () => {
    const { keys } = signedReceipt();
    expect(await verify("{ not json", keys)).toHaveTextContent("This is not JSON");
  });
});
