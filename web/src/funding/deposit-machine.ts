import {
  depositDetailsStep,
  type PaymentMethodView,
  usesWalletAddress,
  type WalletData,
} from "@tp/domain/funding";

/**
 * The deposit flow of SPEC §4 as a pure reducer:
 *
 *   SELECT_METHOD → AMOUNT_INPUT → WALLET_DETAILS (crypto, e-wallet) | BANK_DETAILS (bank,
 *   money transfer) → UPLOAD_RECEIPT → SUCCESS → "Make Another Deposit" → SELECT_METHOD
 *
 * Back from wallet details cancels the deposit (DELETE /deposits/{id}) and resets; back
 * from bank details only returns. Unavailable methods cannot be chosen. The calls and the
 * toasts live in deposit-actions.ts; this file only says which step follows which.
 */
export type DepositStep =
  | "SELECT_METHOD"
  | "AMOUNT_INPUT"
  | "WALLET_DETAILS"
  | "BANK_DETAILS"
  | "UPLOAD_RECEIPT"
  | "SUCCESS";

/** What is in flight: the deposit being opened, its wallet fetched, cancelled or proven. */
export type DepositBusy = "creating" | "loading_wallet" | "cancelling" | "uploading" | null;

export interface OpenDeposit {
  id: number;
  transactionHash: string;
  amount: number;
  /** The fee fixed on the deposit by the server and the amount it credits (dollars). */
  fee?: number;
  netAmount?: number;
}

export interface DepositState {
  step: DepositStep;
  method: PaymentMethodView | null;
  /** The amount last entered, kept when bank details return to the amount form. */
  amount: number | null;
  deposit: OpenDeposit | null;
  wallet: WalletData | null;
  busy: DepositBusy;
  /** The method the trader tried to choose while it is unavailable (SPEC §5 notice). */
  unavailableMethodId: string | null;
}

export type DepositEvent =
  | { type: "CHOOSE_METHOD"; method: PaymentMethodView }
  | { type: "CHANGE_METHOD" }
  | { type: "SUBMIT_AMOUNT"; amount: number }
  | { type: "DEPOSIT_CREATED"; deposit: OpenDeposit }
  | { type: "WALLET_LOADED"; wallet: WalletData }
  /** A deposit awaiting payment reopened from the history (issue 13): at its proof step. */
  | {
      type: "RESUMED";
      method: PaymentMethodView;
      deposit: OpenDeposit;
      wallet: WalletData | null;
    }
  | { type: "FAILED" }
  | { type: "PAYMENT_MADE" }
  | { type: "BACK" }
  | { type: "CANCEL_SUCCEEDED" }
  | { type: "CANCEL_FAILED" }
  | { type: "UPLOAD_STARTED" }
  | { type: "UPLOAD_SUCCEEDED" }
  | { type: "UPLOAD_FAILED" }
  | { type: "START_OVER" };

export const initialDepositState: DepositState = {
  step: "SELECT_METHOD",
  method: null,
  amount: null,
  deposit: null,
  wallet: null,
  busy: null,
  unavailableMethodId: null,
};

/** The step showing the payment details for this state's method. */
function detailsStep(method: PaymentMethodView): "WALLET_DETAILS" | "BANK_DETAILS" {
  return depositDetailsStep(method.kind);
}

export function depositReducer(state: DepositState, event: DepositEvent): DepositState {
  switch (event.type) {
    case "CHOOSE_METHOD": {
      if (state.busy !== null) return state;
      if (state.step !== "SELECT_METHOD" && state.step !== "AMOUNT_INPUT") return state;
      if (!event.method.is_available) {
        return { ...state, unavailableMethodId: event.method.id };
      }
      const sameMethod = state.method?.id === event.method.id;
      return {
        ...initialDepositState,
        step: "AMOUNT_INPUT",
        method: event.method,
        amount: sameMethod ? state.amount : null,
      };
    }
    case "CHANGE_METHOD":
      if (state.step !== "AMOUNT_INPUT" || state.busy !== null) return state;
      return { ...initialDepositState };
    case "SUBMIT_AMOUNT":
      if (state.step !== "AMOUNT_INPUT" || state.busy !== null) return state;
      return { ...state, amount: event.amount, busy: "creating", unavailableMethodId: null };
    case "DEPOSIT_CREATED": {
      if (state.busy !== "creating" || state.method === null) return state;
      if (usesWalletAddress(state.method.kind)) {
        return { ...state, deposit: event.deposit, busy: "loading_wallet" };
      }
      return { ...state, step: detailsStep(state.method), deposit: event.deposit, busy: null };
    }
    case "RESUMED":
      if (state.step !== "SELECT_METHOD" || state.busy !== null) return state;
      return {
        ...initialDepositState,
        step: "UPLOAD_RECEIPT",
        method: event.method,
        amount: event.deposit.amount,
        deposit: event.deposit,
        wallet: event.wallet,
      };
    case "WALLET_LOADED":
      if (state.busy !== "loading_wallet") return state;
      return { ...state, step: "WALLET_DETAILS", wallet: event.wallet, busy: null };
    case "FAILED":
      // SPEC §8 "Deposit failed (state resets)": any failure opening a deposit starts over.
      if (state.busy !== "creating" && state.busy !== "loading_wallet") return state;
      return { ...initialDepositState };
    case "PAYMENT_MADE":
      if (state.step !== "WALLET_DETAILS" && state.step !== "BANK_DETAILS") return state;
      if (state.busy !== null) return state;
      return { ...state, step: "UPLOAD_RECEIPT" };
    case "BACK":
      if (state.busy !== null) return state;
      switch (state.step) {
        case "AMOUNT_INPUT":
          return { ...initialDepositState };
        // The deposit is cancelled first (deposit-actions.ts); CANCEL_SUCCEEDED resets.
        case "WALLET_DETAILS":
          return { ...state, busy: "cancelling" };
        // Only returns: the deposit stays open, its reference still valid for a transfer.
        case "BANK_DETAILS":
          return { ...state, step: "AMOUNT_INPUT", deposit: null };
        case "UPLOAD_RECEIPT":
          if (!state.method) return state;
          // A resumed deposit whose wallet could not be fetched has no details to show.
          if (usesWalletAddress(state.method.kind) && state.wallet === null) {
            return { ...initialDepositState };
          }
          return { ...state, step: detailsStep(state.method) };
        default:
          return state;
      }
    case "CANCEL_SUCCEEDED":
      if (state.busy !== "cancelling") return state;
      return { ...initialDepositState };
    case "CANCEL_FAILED":
      if (state.busy !== "cancelling") return state;
      return { ...state, busy: null };
    case "UPLOAD_STARTED":
      if (state.step !== "UPLOAD_RECEIPT" || state.busy !== null) return state;
      return { ...state, busy: "uploading" };
    case "UPLOAD_SUCCEEDED":
      if (state.busy !== "uploading") return state;
      return { ...state, step: "SUCCESS", busy: null };
    case "UPLOAD_FAILED":
      if (state.busy !== "uploading") return state;
      return { ...state, busy: null };
    case "START_OVER":
      if (state.step !== "SUCCESS") return state;
      return { ...initialDepositState };
  }
}
