import {
  type CreateWithdrawalRequest,
  isPaymentMethodId,
  fundingMessages as m,
  type PaymentMethodView,
} from "@tp/domain/funding";
import { ApiError, errorMessage } from "../api/client.ts";
import type { CreatedWithdrawal } from "../api/create-withdrawal.ts";
import type { Notifier } from "./deposit-actions.ts";
import type { WithdrawalEvent, WithdrawalProblem, WithdrawalState } from "./withdrawal-machine.ts";

export interface WithdrawalApi {
  createWithdrawal(
    request: CreateWithdrawalRequest,
    idempotencyKey: string,
  ): Promise<CreatedWithdrawal>;
  /** The method as the server has it now (after staff changed its fee), or null. */
  reloadMethod(methodId: string): Promise<PaymentMethodView | null>;
  newIdempotencyKey(): string;
}

export interface WithdrawalContext {
  api: WithdrawalApi;
  notify: Notifier;
  dispatch: (event: WithdrawalEvent) => void;
}

/** Which help a refusal needs: verify the e-mail, verify the identity, or fund the account. */
export function withdrawalProblemOf(error: unknown): WithdrawalProblem {
  if (!(error instanceof ApiError)) return "other";
  if (error.code === "INSUFFICIENT_FUNDS") return "balance";
  if (error.code === "EMAIL_NOT_VERIFIED") return "email";
  if (error.code === "IDENTITY_NOT_VERIFIED") return "identity";
  return "other";
}

/**
 * Confirm (SPEC §4, §8; PRODUCT.md D4): sends the reviewed request with its key. Success is
 * shown only after the server stored it; a refusal shows the server's message, or
 * "Withdrawal failed" when there is none to show.
 */
export async function confirmWithdrawal(
  context: WithdrawalContext,
  state: WithdrawalState,
): Promise<void> {
  const { api, notify, dispatch } = context;
  if (state.step !== "CONFIRM_WITHDRAWAL" || state.busy) return;
  const request = state.request;
  const key = state.idempotencyKey;
  dispatch({ type: "CONFIRM" });
  if (request === null || key === null || !isPaymentMethodId(request.payment_method_id)) {
    notify.error(m.invalidWithdrawalMethod);
    dispatch({ type: "FAILED", message: m.invalidWithdrawalMethod, problem: "other" });
    return;
  }
  try {
    const created = await api.createWithdrawal(request, key);
    notify.success(created.message ?? m.withdrawalRequested);
    dispatch({
      type: "SUCCEEDED",
      result: {
        withdrawalId: created.withdrawalId,
        transactionHash: created.transactionHash,
        accountBalance: created.accountBalance,
      },
    });
  } catch (error) {
    const message = errorMessage(error, m.withdrawalFailed);
    notify.error(message);
    if (error instanceof ApiError && error.code === "FEE_CHANGED") {
      const method = await api.reloadMethod(request.payment_method_id).catch(() => null);
      if (method) {
        dispatch({ type: "FEE_CHANGED", method, message, idempotencyKey: api.newIdempotencyKey() });
        return;
      }
    }
    dispatch({ type: "FAILED", message, problem: withdrawalProblemOf(error) });
  }
}
