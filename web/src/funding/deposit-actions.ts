import { feeBreakdown, feeScheduleOf } from "@tp/domain/fees";
import {
  isPaymentMethodConfigured,
  isPaymentMethodId,
  fundingMessages as m,
  type PaymentMethodView,
  usesWalletAddress,
  type WalletData,
} from "@tp/domain/funding";
import { centsFromDollars, dollarsFromCents } from "@tp/domain/money";
import { ApiError, errorMessage } from "../api/client.ts";
import type { CreatedDeposit } from "../api/create-deposit.ts";
import type { DepositEvent, DepositState } from "./deposit-machine.ts";

/** The calls the deposit flow makes; the page hands in the real ones, tests their own. */
export interface DepositApi {
  createDeposit(
    request: { payment_method_id: string; amount: number; expected_fee?: number },
    idempotencyKey: string,
  ): Promise<CreatedDeposit | null>;
  fetchWallet(methodId: string): Promise<WalletData>;
  cancelDeposit(depositId: number, idempotencyKey: string): Promise<void>;
  uploadReceipt(depositId: number, receipt: File, transactionHash: string): Promise<string | null>;
  newIdempotencyKey(): string;
}

export interface Notifier {
  success(text: string): void;
  error(text: string): void;
  /** The cap of deposits awaiting payment was reached: show the way out (issue 13). */
  capReached?(): void;
  /** Staff changed a method's fee since the form showed it: load the methods again. */
  feeChanged?(): void;
}

export interface DepositContext {
  api: DepositApi;
  notify: Notifier;
  dispatch: (event: DepositEvent) => void;
}

/**
 * Cancels a deposit the flow gave up on (SPEC §7: DELETE "used on failure or back"). A
 * failure says "Failed to cancel deposit"; the deposit then expires unpaid on its own.
 */
async function cancelQuietly(context: DepositContext, depositId: number): Promise<boolean> {
  try {
    await context.api.cancelDeposit(depositId, context.api.newIdempotencyKey());
    return true;
  } catch {
    context.notify.error(m.cancelFailed);
    return false;
  }
}

/**
 * Fund Account (SPEC §4, §8): checks the method, opens the deposit, then for wallet kinds
 * fetches the address to pay to. Every failure names itself and resets the flow; a deposit
 * already opened is cancelled first.
 */
export async function submitDepositAmount(
  context: DepositContext,
  state: DepositState,
  methods: readonly PaymentMethodView[],
  amount: number,
): Promise<void> {
  const { api, notify, dispatch } = context;
  const method = state.method;
  if (state.step !== "AMOUNT_INPUT" || state.busy !== null) return;
  dispatch({ type: "SUBMIT_AMOUNT", amount });

  const listed = method ? methods.find((item) => item.id === method.id) : undefined;
  if (!method || !isPaymentMethodId(method.id) || listed === undefined) {
    notify.error(m.invalidPaymentMethod);
    dispatch({ type: "FAILED" });
    return;
  }
  if (!listed.is_active) {
    notify.error(m.methodCurrentlyUnavailable);
    dispatch({ type: "FAILED" });
    return;
  }
  if (!isPaymentMethodConfigured(listed)) {
    notify.error(m.methodNotAvailable);
    dispatch({ type: "FAILED" });
    return;
  }

  // The fee the form showed goes with the request: if staff changed it since, the server
  // refuses (FEE_CHANGED) rather than charge a fee the trader did not see.
  const cents = centsFromDollars(amount);
  const shown = cents === null ? null : feeBreakdown(cents, feeScheduleOf(method, "deposit"));
  let created: CreatedDeposit | null;
  try {
    created = await api.createDeposit(
      {
        payment_method_id: method.id,
        amount,
        ...(shown ? { expected_fee: dollarsFromCents(shown.fee_cents) } : {}),
      },
      api.newIdempotencyKey(),
    );
  } catch (error) {
    notify.error(errorMessage(error, m.depositFailed));
    if (error instanceof ApiError && error.code === "TOO_MANY_AWAITING_DEPOSITS") {
      notify.capReached?.();
    }
    // The flow starts over at the methods, which then show the new fee.
    if (error instanceof ApiError && error.code === "FEE_CHANGED") notify.feeChanged?.();
    dispatch({ type: "FAILED" });
    return;
  }
  if (created === null) {
    notify.error(m.invalidDepositResponse);
    dispatch({ type: "FAILED" });
    return;
  }
  const deposit = {
    id: created.depositId,
    transactionHash: created.transactionHash,
    amount,
    ...(typeof created.fee === "number" && typeof created.netAmount === "number"
      ? { fee: created.fee, netAmount: created.netAmount }
      : {}),
  };
  dispatch({ type: "DEPOSIT_CREATED", deposit });
  if (!usesWalletAddress(method.kind)) return;

  let wallet: WalletData | null = null;
  let failure: string[] = [m.walletFailed];
  try {
    const fetched = await api.fetchWallet(method.id);
    if (fetched.wallet_address.length > 0) wallet = fetched;
    else failure = [m.walletNotAvailable, m.walletFailed];
  } catch (error) {
    if (error instanceof ApiError && error.code === "PAYMENT_METHOD_INACTIVE") {
      failure = [m.methodCurrentlyUnavailable];
    } else if (error instanceof ApiError && error.code === "WALLET_ADDRESS_UNAVAILABLE") {
      failure = [m.walletNotAvailable, m.walletFailed];
    }
  }
  if (wallet !== null) {
    dispatch({ type: "WALLET_LOADED", wallet });
    return;
  }
  for (const text of failure) notify.error(text);
  await cancelQuietly(context, deposit.id);
  dispatch({ type: "FAILED" });
}

/**
 * Back from wallet details: cancel the deposit, then reset. When the server says the
 * deposit is gone or no longer awaiting payment there is nothing left to cancel, so the
 * flow resets with the server's word; any other failure keeps the details on screen.
 */
export async function cancelOpenDeposit(context: DepositContext, state: DepositState) {
  const { api, notify, dispatch } = context;
  if (state.step !== "WALLET_DETAILS" || state.busy !== null || state.deposit === null) return;
  dispatch({ type: "BACK" });
  try {
    await api.cancelDeposit(state.deposit.id, api.newIdempotencyKey());
    dispatch({ type: "CANCEL_SUCCEEDED" });
  } catch (error) {
    notify.error(m.cancelFailed);
    if (
      error instanceof ApiError &&
      (error.code === "NOT_FOUND" || error.code === "DEPOSIT_NOT_AWAITING_PAYMENT")
    ) {
      dispatch({ type: "CANCEL_SUCCEEDED" });
    } else {
      dispatch({ type: "CANCEL_FAILED" });
    }
  }
}

/** Upload Payment Proof: the receipt with the deposit's hash; success is "under review". */
export async function submitReceipt(
  context: DepositContext,
  state: DepositState,
  receipt: File,
  transactionHash: string,
): Promise<{ ok: true } | { ok: false; error: unknown }> {
  const { api, notify, dispatch } = context;
  if (state.step !== "UPLOAD_RECEIPT" || state.busy !== null || state.deposit === null) {
    return { ok: false, error: null };
  }
  dispatch({ type: "UPLOAD_STARTED" });
  try {
    await api.uploadReceipt(state.deposit.id, receipt, transactionHash);
  } catch (error) {
    notify.error(errorMessage(error, m.receiptFailed));
    dispatch({ type: "UPLOAD_FAILED" });
    return { ok: false, error };
  }
  notify.success(m.depositSubmitted);
  dispatch({ type: "UPLOAD_SUCCEEDED" });
  return { ok: true };
}
