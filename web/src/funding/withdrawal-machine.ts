import { feeBreakdown, feeScheduleOf } from "@tp/domain/fees";
import type { CreateWithdrawalRequest, PaymentMethodView } from "@tp/domain/funding";
import { centsFromDollars, dollarsFromCents } from "@tp/domain/money";

/**
 * The withdrawal flow of SPEC §4 as a pure reducer:
 *
 *   SELECT_METHOD → FORM → CONFIRM_WITHDRAWAL → SUCCESS → SELECT_METHOD
 *
 * Back on the confirmation resets the flow; Confirm sends the request, and SUCCESS shows
 * only once the server has stored it (PRODUCT.md D4). A refused request stays on the
 * confirmation with the reason, so the trader can go back or try again. When staff changed
 * the method's fee since the form (FEE_CHANGED), the confirmation shows the new fee and
 * Confirm sends a new request carrying it; a fee that would take the whole amount sends the
 * trader back to the form.
 */
export type WithdrawalStep = "SELECT_METHOD" | "FORM" | "CONFIRM_WITHDRAWAL" | "SUCCESS";

/** Why the server refused, for the help shown beside the message. */
export type WithdrawalProblem = "email" | "identity" | "balance" | "other";

export interface WithdrawalResult {
  withdrawalId: number;
  transactionHash: string;
  accountBalance: number | null;
}

export interface WithdrawalState {
  step: WithdrawalStep;
  method: PaymentMethodView | null;
  /** The checked request the confirmation shows and Confirm sends. */
  request: CreateWithdrawalRequest | null;
  /** One key per reviewed request: a retried Confirm is the same request (PRODUCT.md D9). */
  idempotencyKey: string | null;
  busy: boolean;
  error: { message: string; problem: WithdrawalProblem } | null;
  result: WithdrawalResult | null;
  unavailableMethodId: string | null;
}

export type WithdrawalEvent =
  | { type: "CHOOSE_METHOD"; method: PaymentMethodView }
  | { type: "CHANGE_METHOD" }
  | { type: "REVIEW"; request: CreateWithdrawalRequest; idempotencyKey: string }
  | { type: "BACK" }
  | { type: "CONFIRM" }
  | { type: "SUCCEEDED"; result: WithdrawalResult }
  | { type: "FAILED"; message: string; problem: WithdrawalProblem }
  | { type: "FEE_CHANGED"; method: PaymentMethodView; message: string; idempotencyKey: string }
  | { type: "START_OVER" };

export const initialWithdrawalState: WithdrawalState = {
  step: "SELECT_METHOD",
  method: null,
  request: null,
  idempotencyKey: null,
  busy: false,
  error: null,
  result: null,
  unavailableMethodId: null,
};

/** Withdrawals need only an active method: the trader supplies where the money goes. */
export function isWithdrawalMethodUsable(method: PaymentMethodView): boolean {
  return method.is_active;
}

export function withdrawalReducer(state: WithdrawalState, event: WithdrawalEvent): WithdrawalState {
  switch (event.type) {
    case "CHOOSE_METHOD":
      if (state.step !== "SELECT_METHOD" && state.step !== "FORM") return state;
      if (!isWithdrawalMethodUsable(event.method)) {
        return { ...state, unavailableMethodId: event.method.id };
      }
      return { ...initialWithdrawalState, step: "FORM", method: event.method };
    case "CHANGE_METHOD":
      if (state.step !== "FORM") return state;
      return { ...initialWithdrawalState };
    case "REVIEW":
      if (state.step !== "FORM" || state.method === null) return state;
      if (event.request.payment_method_id !== state.method.id) return state;
      return {
        ...state,
        step: "CONFIRM_WITHDRAWAL",
        request: event.request,
        idempotencyKey: event.idempotencyKey,
        error: null,
      };
    case "BACK":
      if (state.busy) return state;
      if (state.step === "CONFIRM_WITHDRAWAL") return { ...initialWithdrawalState };
      if (state.step === "FORM") return { ...initialWithdrawalState };
      return state;
    case "CONFIRM":
      if (state.step !== "CONFIRM_WITHDRAWAL" || state.busy) return state;
      return { ...state, busy: true, error: null };
    case "SUCCEEDED":
      if (state.step !== "CONFIRM_WITHDRAWAL" || !state.busy) return state;
      return { ...state, step: "SUCCESS", busy: false, result: event.result };
    case "FAILED":
      if (state.step !== "CONFIRM_WITHDRAWAL" || !state.busy) return state;
      return { ...state, busy: false, error: { message: event.message, problem: event.problem } };
    case "FEE_CHANGED": {
      if (state.step !== "CONFIRM_WITHDRAWAL" || !state.busy || state.request === null) {
        return state;
      }
      if (event.method.id !== state.request.payment_method_id) return state;
      const cents = centsFromDollars(state.request.amount);
      const fee =
        cents === null ? null : feeBreakdown(cents, feeScheduleOf(event.method, "withdrawal"));
      if (fee === null) return { ...initialWithdrawalState, step: "FORM", method: event.method };
      return {
        ...state,
        busy: false,
        method: event.method,
        request: { ...state.request, expected_fee: dollarsFromCents(fee.fee_cents) },
        idempotencyKey: event.idempotencyKey,
        error: { message: event.message, problem: "other" },
      };
    }
    case "START_OVER":
      if (state.step !== "SUCCESS") return state;
      return { ...initialWithdrawalState };
  }
}
