import type { UserView } from "@tp/domain/api";
import { type PlaceTradeRequest, tradeMessages } from "@tp/domain/trade-form";
import { type RefObject, useRef, useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { newIdempotencyKey, usePlaceTradeMutation } from "../../api/place-trade.ts";
import { readStorage, riskAcknowledgedKey, writeStorage } from "../../storage.ts";
import { checkTrade, type TradeField } from "./trade-rules.ts";
import type { TradeForm } from "./use-trade-form.ts";

/**
 * The step a chosen trade is at: the risk warning (first real trade), then the confirmation.
 * `riskAcknowledged`: the warning was just acknowledged for this trade; it is remembered
 * only once the trade is placed (issue 11: a refused trade does not use it up).
 */
export type TradeStep =
  | { kind: "risk"; request: PlaceTradeRequest }
  | { kind: "confirm"; request: PlaceTradeRequest; riskAcknowledged: boolean };

/** The fields a failed check focuses. */
export interface TradeFieldRefs {
  asset: RefObject<HTMLSelectElement | null>;
  amount: RefObject<HTMLInputElement | null>;
  expiration: RefObject<HTMLSelectElement | null>;
}

export interface TradeFlow {
  refs: TradeFieldRefs;
  /** The field the last check failed on, marked aria-invalid. */
  invalid: TradeField | null;
  step: TradeStep | null;
  isPending: boolean;
  /** Call or Put: checks the form, then opens the risk warning or the confirmation. */
  choose: (type: "call" | "put") => void;
  acknowledgeRisk: (request: PlaceTradeRequest) => void;
  confirm: (step: Extract<TradeStep, { kind: "confirm" }>) => Promise<void>;
  cancel: () => void;
}

/**
 * From Call / Put to a placed trade (SPEC §4, §5): the check, the risk warning on the first
 * real-account trade (D6), the confirmation, then POST /trades with a fresh idempotency key.
 * The acknowledgement is stored when that trade is placed: refused or cancelled, the
 * warning is asked again, so it always precedes the first real trade that actually runs.
 */
export function useTradeFlow(user: UserView, form: TradeForm, isPractice: boolean): TradeFlow {
  const [step, setStep] = useState<TradeStep | null>(null);
  const place = usePlaceTradeMutation();
  const refs = {
    asset: useRef<HTMLSelectElement>(null),
    amount: useRef<HTMLInputElement>(null),
    expiration: useRef<HTMLSelectElement>(null),
  } satisfies Record<TradeField, unknown>;
  const [invalid, setInvalid] = useState<TradeField | null>(null);

  const choose = (type: "call" | "put") => {
    const check = checkTrade(form.values, type, isPractice);
    if (!check.ok) {
      toast.error(check.message);
      setInvalid(check.field);
      if (check.field) refs[check.field].current?.focus();
      return;
    }
    setInvalid(null);
    const acknowledged = readStorage(riskAcknowledgedKey(user.id)) !== null;
    setStep(
      !isPractice && !acknowledged
        ? { kind: "risk", request: check.request }
        : { kind: "confirm", request: check.request, riskAcknowledged: false },
    );
  };

  const acknowledgeRisk = (request: PlaceTradeRequest) => {
    setStep({ kind: "confirm", request, riskAcknowledged: true });
  };

  const confirm = async ({
    request,
    riskAcknowledged,
  }: {
    request: PlaceTradeRequest;
    riskAcknowledged: boolean;
  }) => {
    try {
      // A fresh key per confirmed trade (PRODUCT.md D9): a retry of this request is a replay.
      const placed = await place.mutateAsync({ request, idempotencyKey: newIdempotencyKey() });
      if (riskAcknowledged) {
        writeStorage(riskAcknowledgedKey(user.id), new Date().toISOString());
      }
      toast.success(placed.message ?? tradeMessages.placed);
      form.clearAfterTrade();
    } catch (error) {
      toast.error(errorMessage(error, tradeMessages.placeFailed));
    } finally {
      setStep(null);
    }
  };

  return {
    refs,
    invalid,
    step,
    isPending: place.isPending,
    choose,
    acknowledgeRisk,
    confirm,
    cancel: () => setStep(null),
  };
}
