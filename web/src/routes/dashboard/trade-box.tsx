import type { UserView } from "@tp/domain/api";
import { assetsOfType, expirations, optionTypeLabels, optionTypes } from "@tp/domain/catalogue";
import { formatUsd } from "@tp/domain/money";
import { type PlaceTradeRequest, tradeMessages } from "@tp/domain/trade-form";
import { useId, useRef, useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import type { MarketView } from "../../api/markets.ts";
import { newIdempotencyKey, usePlaceTradeMutation } from "../../api/place-trade.ts";
import type { AccountKind } from "../../api/trade-history.ts";
import { SelectField, TextField } from "../../components/form-fields.tsx";
import { formatPrice } from "../../components/trade-format.ts";
import { readStorage, riskAcknowledgedKey, writeStorage } from "../../storage.ts";
import { useLivePrices } from "../../stream/stream-context.ts";
import { AccountSwitcher } from "./account-switcher.tsx";
import { RiskWarningModal } from "./risk-warning-modal.tsx";
import { TradeConfirmModal } from "./trade-confirm-modal.tsx";
import { checkTrade, potentialProfit, type TradeField } from "./trade-rules.ts";
import type { TradeForm } from "./use-trade-form.ts";

type Step =
  | { kind: "risk"; request: PlaceTradeRequest }
  | { kind: "confirm"; request: PlaceTradeRequest };

/**
 * The right-hand trade box (SPEC §2, §4, §5): the account switcher, then option type,
 * asset, amount and expiration, the potential profit, and Call / Put. A valid choice opens
 * the confirmation; the first real-account trade asks for the risk warning first (D6).
 */
export function TradeBox({
  user,
  account,
  onAccount,
  form,
  markets,
}: {
  user: UserView;
  account: AccountKind;
  onAccount: (account: AccountKind) => void;
  form: TradeForm;
  markets: ReadonlyMap<string, MarketView>;
}) {
  const { values } = form;
  const [step, setStep] = useState<Step | null>(null);
  const place = usePlaceTradeMutation();
  const livePrice = useLivePrices(values.asset ? [values.asset] : []);
  const refs = {
    asset: useRef<HTMLSelectElement>(null),
    amount: useRef<HTMLInputElement>(null),
    expiration: useRef<HTMLSelectElement>(null),
  } satisfies Record<TradeField, unknown>;
  const [invalid, setInvalid] = useState<TradeField | null>(null);
  const headingId = useId();
  const isPractice = account === "practice";
  const profit = potentialProfit(values.amount, values.expiration);
  const payout = expirations.find((option) => String(option.seconds) === values.expiration);
  const source = values.asset
    ? (livePrice(values.asset)?.source ?? markets.get(values.asset)?.source ?? null)
    : null;

  const onDirection = (type: "call" | "put") => {
    const check = checkTrade(values, type, isPractice);
    if (!check.ok) {
      toast.error(check.message);
      setInvalid(check.field);
      if (check.field) refs[check.field].current?.focus();
      return;
    }
    setInvalid(null);
    const acknowledged = readStorage(riskAcknowledgedKey(user.id)) !== null;
    setStep({ kind: !isPractice && !acknowledged ? "risk" : "confirm", request: check.request });
  };

  const onConfirm = async (request: PlaceTradeRequest) => {
    try {
      // A fresh key per confirmed trade (PRODUCT.md D9): a retry of this request is a replay.
      const placed = await place.mutateAsync({ request, idempotencyKey: newIdempotencyKey() });
      toast.success(placed.message ?? tradeMessages.placed);
      form.clearAfterTrade();
    } catch (error) {
      toast.error(errorMessage(error, tradeMessages.placeFailed));
    } finally {
      setStep(null);
    }
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-navy-700 dark:bg-navy-900"
    >
      <h2 id={headingId} className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">
        Trade
      </h2>
      <AccountSwitcher user={user} account={account} onAccount={onAccount} />

      {!isPractice && source === "simulated" ? (
        <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
          {tradeMessages.simulatedRealRefused}
        </p>
      ) : null}

      <form
        className="mt-4 grid grid-cols-1 gap-3"
        noValidate
        onSubmit={(event) => event.preventDefault()}
        aria-label="Trade form"
      >
        <SelectField
          label="Option type"
          value={values.optionType}
          onChange={(event) => form.setOptionType(event.target.value)}
        >
          {optionTypes.map((type) => (
            <option key={type} value={type}>
              {optionTypeLabels[type]}
            </option>
          ))}
        </SelectField>
        <div>
          <SelectField
            ref={refs.asset}
            label="Asset"
            value={values.asset}
            aria-invalid={invalid === "asset" || undefined}
            onChange={(event) => form.setAsset(event.target.value)}
          >
            <option value="">Select asset</option>
            {assetsOfType(values.optionType).map((asset) => (
              <option key={asset.symbol} value={asset.symbol}>
                {asset.name} ({asset.symbol})
              </option>
            ))}
          </SelectField>
          {values.asset ? (
            <p className="mt-1 text-xs text-slate-500 tabular-nums dark:text-slate-400">
              Last price{" "}
              <span className="font-semibold text-slate-700 dark:text-slate-200">
                {formatPrice(
                  values.asset,
                  livePrice(values.asset)?.price ?? markets.get(values.asset)?.price,
                )}
              </span>
            </p>
          ) : null}
        </div>
        <TextField
          ref={refs.amount}
          label="Amount (USD)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          placeholder="0.00"
          value={values.amount}
          aria-invalid={invalid === "amount" || undefined}
          onChange={(event) => form.setAmount(event.target.value)}
        />
        <SelectField
          ref={refs.expiration}
          label="Expiration"
          value={values.expiration}
          aria-invalid={invalid === "expiration" || undefined}
          onChange={(event) => form.setExpiration(event.target.value)}
        >
          <option value="">Select expiration time</option>
          {expirations.map((option) => (
            <option key={option.seconds} value={option.seconds}>
              {option.label} ({option.payoutPercent}%)
            </option>
          ))}
        </SelectField>
        <div className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2.5 dark:bg-navy-800">
          <span className="text-sm text-slate-600 dark:text-slate-300">
            Potential profit{payout ? ` (${payout.payoutPercent}%)` : ""}
          </span>
          <output
            aria-label="Potential profit"
            className="text-base font-bold tabular-nums text-emerald-700 dark:text-emerald-400"
          >
            {formatUsd(profit)}
          </output>
        </div>
        <div className="grid grid-cols-2 gap-2">
          <button
            type="button"
            onClick={() => onDirection("call")}
            disabled={place.isPending}
            className="flex h-12 items-center justify-center gap-2 rounded-xl bg-emerald-600 text-base font-bold text-white shadow-sm transition-colors hover:bg-emerald-700 disabled:opacity-60"
          >
            <span aria-hidden="true">▲</span>
            Call
          </button>
          <button
            type="button"
            onClick={() => onDirection("put")}
            disabled={place.isPending}
            className="flex h-12 items-center justify-center gap-2 rounded-xl bg-red-600 text-base font-bold text-white shadow-sm transition-colors hover:bg-red-700 disabled:opacity-60"
          >
            <span aria-hidden="true">▼</span>
            Put
          </button>
        </div>
        <p className="text-center text-xs text-slate-500 dark:text-slate-400">
          {isPractice ? "Trading on your practice balance" : "Trading on your real balance"}
        </p>
      </form>

      {step?.kind === "risk" ? (
        <RiskWarningModal
          onCancel={() => setStep(null)}
          onAcknowledge={() => {
            writeStorage(riskAcknowledgedKey(user.id), new Date().toISOString());
            setStep({ kind: "confirm", request: step.request });
          }}
        />
      ) : null}
      {step?.kind === "confirm" ? (
        <TradeConfirmModal
          request={step.request}
          potentialProfit={potentialProfit(
            String(step.request.amount),
            String(step.request.duration),
          )}
          isProcessing={place.isPending}
          onCancel={() => setStep(null)}
          onConfirm={() => onConfirm(step.request)}
        />
      ) : null}
    </section>
  );
}
