import { canonicalJson } from "@tp/domain/canonical-json";
import {
  looksLikeSignedReceipt,
  type ReceiptCheck,
  receiptChecks,
  type SignedTradeReceipt,
} from "@tp/domain/trade-receipt";
import { type FormEvent, useId, useState } from "react";
import { apiRequest } from "../../api/client.ts";
import { Button } from "../../components/button.tsx";
import { PublicPage } from "../../components/public-page.tsx";

const panelClass =
  "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-navy-700 dark:bg-navy-900";

function bytesOfBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The Ed25519 signature over the receipt's canonical form, checked by the browser itself. */
async function signatureHolds(signed: SignedTradeReceipt): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    bytesOfBase64(signed.signature.public_key),
    { name: "Ed25519" },
    false,
    ["verify"],
  );
  return crypto.subtle.verify(
    { name: "Ed25519" },
    key,
    bytesOfBase64(signed.signature.value),
    new TextEncoder().encode(canonicalJson(signed.receipt)),
  );
}

type Outcome =
  | { kind: "checked"; checks: ReceiptCheck[]; tradeId: number }
  | { kind: "problem"; message: string };

/**
 * Public (issue 15 item 2): anyone pastes or opens a trade receipt; this page checks its
 * signature in the browser against the platform's published keys and recomputes the outcome
 * and credit from the receipt's own prices by the rule. tools/verify-receipt.mjs does the
 * same with nothing but Node, without trusting this page.
 */
export function VerifyPage() {
  const [text, setText] = useState("");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldId = useId();

  async function check(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        setOutcome({ kind: "problem", message: "This is not JSON: paste the whole receipt file." });
        return;
      }
      if (!looksLikeSignedReceipt(parsed)) {
        setOutcome({
          kind: "problem",
          message: "This is not a trade receipt: it has no receipt and signature of this platform.",
        });
        return;
      }
      const keys = await apiRequest<{ keys: Array<{ key_id: string; public_key: string }> }>(
        "/receipts/keys",
      );
      let valid = false;
      try {
        valid = await signatureHolds(parsed);
      } catch {
        setOutcome({
          kind: "problem",
          message:
            "This browser cannot check Ed25519 signatures. Use tools/verify-receipt.mjs with Node instead.",
        });
        return;
      }
      setOutcome({
        kind: "checked",
        checks: receiptChecks(parsed, valid, keys.data?.keys ?? []),
        tradeId: parsed.receipt.trade.id,
      });
    } catch {
      setOutcome({
        kind: "problem",
        message: "The published keys could not be loaded. Try again.",
      });
    } finally {
      setBusy(false);
    }
  }

  async function openFile(file: File | undefined) {
    if (!file) return;
    setText(await file.text());
    setOutcome(null);
  }

  const allHold = outcome?.kind === "checked" && outcome.checks.every((c) => c.holds);
  return (
    <PublicPage
      title="Verify a trade receipt"
      intro="Check that a receipt is exactly what the platform signed, and that its outcome and payout follow from its own prices by the published rules."
    >
      <div className="flex flex-col gap-6">
        <form className={panelClass} onSubmit={(event) => void check(event)}>
          <label htmlFor={fieldId} className="font-semibold text-slate-900 dark:text-white">
            Receipt
          </label>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Paste the receipt downloaded from a trade's audit view, or open the file.
          </p>
          <textarea
            id={fieldId}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setOutcome(null);
            }}
            rows={8}
            spellCheck={false}
            className="mt-3 w-full rounded-lg border border-slate-300 bg-white p-3 font-mono text-xs text-slate-900 dark:border-navy-600 dark:bg-navy-950 dark:text-slate-100"
          />
          <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
            <input
              type="file"
              accept="application/json,.json"
              aria-label="Open a receipt file"
              onChange={(event) => void openFile(event.target.files?.[0])}
              className="text-sm text-slate-700 dark:text-slate-300"
            />
            <Button type="submit" disabled={busy || text.trim() === ""}>
              {busy ? "Checking..." : "Verify"}
            </Button>
          </div>
        </form>

        {outcome ? (
          <section aria-labelledby="verify-result" className={panelClass} aria-live="polite">
            <h2
              id="verify-result"
              className={`text-lg font-semibold ${allHold ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}`}
            >
              {outcome.kind === "problem"
                ? "Not checked"
                : allHold
                  ? `Receipt of trade #${outcome.tradeId} verified`
                  : `Receipt of trade #${outcome.tradeId} does not verify`}
            </h2>
            {outcome.kind === "problem" ? (
              <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{outcome.message}</p>
            ) : (
              <ul className="mt-3 flex flex-col gap-2 text-sm">
                {outcome.checks.map((item) => (
                  <li key={item.what} className="flex gap-2">
                    <span
                      className={`font-semibold ${item.holds ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}`}
                    >
                      {item.holds ? "Holds" : "Fails"}
                    </span>
                    <span className="text-slate-800 dark:text-slate-200">{item.what}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ) : null}
      </div>
    </PublicPage>
  );
}
