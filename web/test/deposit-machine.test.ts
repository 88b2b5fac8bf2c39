import { fundingMessages as m, type WalletData } from "@tp/domain/funding";
import { describe, expect, it } from "vitest";
import { ApiError } from "../src/api/client.ts";
import {
  cancelOpenDeposit,
  type DepositApi,
  submitDepositAmount,
  submitReceipt,
} from "../src/funding/deposit-actions.ts";
import {
  type DepositEvent,
  type DepositState,
  depositReducer,
  initialDepositState,
} from "../src/funding/deposit-machine.ts";
import {
  bank,
  bitcoin,
  fileOf,
  litecoinOff,
  methodFixture,
  pngBytes,
  walletFixture,
  westernUnion,
} from "./funding-fixtures.ts";

const deposit = { id: 41, transactionHash: "DEP-41ABC", amount: 100 };

function run(events: DepositEvent[], from: DepositState = initialDepositState): DepositState {
  return events.reduce(depositReducer, from);
}

describe("deposit reducer", () => {
  it("starts at SELECT_METHOD with nothing chosen", () => {
    expect(initialDepositState).toMatchObject({
      step: "SELECT_METHOD",
      method: null,
      deposit: null,
      busy: null,
    });
  });

  it("SELECT_METHOD → AMOUNT_INPUT when an available method is chosen", () => {
    const state = run([{ type: "CHOOSE_METHOD", method: bitcoin }]);
    expect(state.step).toBe("AMOUNT_INPUT");
    expect(state.method?.id).toBe("bitcoin");
  });

  it("an unavailable method cannot be chosen: the step stays and its notice shows", () => {
    const state = run([{ type: "CHOOSE_METHOD", method: litecoinOff }]);
    expect(state.step).toBe("SELECT_METHOD");
    expect(state.method).toBeNull();
    expect(state.unavailableMethodId).toBe("litecoin");
    // From the amount form too: the method already chosen stays chosen.
    const later = run([
      { type: "CHOOSE_METHOD", method: bitcoin },
      { type: "CHOOSE_METHOD", method: litecoinOff },
    ]);
    expect(later.step).toBe("AMOUNT_INPUT");
    expect(later.method?.id).toBe("bitcoin");
    expect(later.unavailableMethodId).toBe("litecoin");
  });

  it("AMOUNT_INPUT → SELECT_METHOD on Change method (or Back)", () => {
    const chosen = run([{ type: "CHOOSE_METHOD", method: bank }]);
    expect(run([{ type: "CHANGE_METHOD" }], chosen)).toEqual(initialDepositState);
    expect(run([{ type: "BACK" }], chosen)).toEqual(initialDepositState);
  });

  it("crypto: SUBMIT_AMOUNT → creating → loading wallet → WALLET_DETAILS", () => {
    let state = run([
      { type: "CHOOSE_METHOD", method: bitcoin },
      { type: "SUBMIT_AMOUNT", amount: 100 },
    ]);
    expect(state).toMatchObject({ step: "AMOUNT_INPUT", busy: "creating", amount: 100 });
    state = run([{ type: "DEPOSIT_CREATED", deposit }], state);
    expect(state).toMatchObject({ step: "AMOUNT_INPUT", busy: "loading_wallet", deposit });
    state = run([{ type: "WALLET_LOADED", wallet: walletFixture }], state);
    expect(state).toMatchObject({ step: "WALLET_DETAILS", busy: null, wallet: walletFixture });
  });

  it("e-wallet (Perfect Money) pays to an address too: WALLET_DETAILS", () => {
    const state = run([
      { type: "CHOOSE_METHOD", method: methodFixture("perfect-money") },
      { type: "SUBMIT_AMOUNT", amount: 5 },
      { type: "DEPOSIT_CREATED", deposit },
      { type: "WALLET_LOADED", wallet: { ...walletFixture, wallet_address: "U1234567" } },
    ]);
    expect(state.step).toBe("WALLET_DETAILS");
  });

  it("bank and money transfer: DEPOSIT_CREATED → BANK_DETAILS at once", () => {
    for (const method of [bank, westernUnion]) {
      const state = run([
        { type: "CHOOSE_METHOD", method },
        { type: "SUBMIT_AMOUNT", amount: 100 },
        { type: "DEPOSIT_CREATED", deposit },
      ]);
      expect(state).toMatchObject({ step: "BANK_DETAILS", busy: null, deposit });
    }
  });

  it("FAILED while opening the deposit resets the flow", () => {
    const creating = run([
      { type: "CHOOSE_METHOD", method: bitcoin },
      { type: "SUBMIT_AMOUNT", amount: 100 },
    ]);
    expect(run([{ type: "FAILED" }], creating)).toEqual(initialDepositState);
    const loadingWallet = run([{ type: "DEPOSIT_CREATED", deposit }], creating);
    expect(run([{ type: "FAILED" }], loadingWallet)).toEqual(initialDepositState);
  });

  const atWallet = run([
    { type: "CHOOSE_METHOD", method: bitcoin },
    { type: "SUBMIT_AMOUNT", amount: 100 },
    { type: "DEPOSIT_CREATED", deposit },
    { type: "WALLET_LOADED", wallet: walletFixture },
  ]);
  const atBank = run([
    { type: "CHOOSE_METHOD", method: bank },
    { type: "SUBMIT_AMOUNT", amount: 100 },
    { type: "DEPOSIT_CREATED", deposit },
  ]);

  it("back from WALLET_DETAILS cancels first, then resets; a failed cancel stays", () => {
    const cancelling = run([{ type: "BACK" }], atWallet);
    expect(cancelling).toMatchObject({ step: "WALLET_DETAILS", busy: "cancelling" });
    expect(run([{ type: "CANCEL_SUCCEEDED" }], cancelling)).toEqual(initialDepositState);
    expect(run([{ type: "CANCEL_FAILED" }], cancelling)).toMatchObject({
      step: "WALLET_DETAILS",
      busy: null,
      deposit,
    });
    // Nothing else moves while the cancel is in flight.
    expect(run([{ type: "PAYMENT_MADE" }], cancelling)).toBe(cancelling);
  });

  it("back from BANK_DETAILS only returns to the amount, keeping method and amount", () => {
    const state = run([{ type: "BACK" }], atBank);
    expect(state).toMatchObject({ step: "AMOUNT_INPUT", busy: null, amount: 100, deposit: null });
    expect(state.method?.id).toBe("bank-transfer");
  });

  it("WALLET_DETAILS | BANK_DETAILS → UPLOAD_RECEIPT on the payment button, and back", () => {
    const fromWallet = run([{ type: "PAYMENT_MADE" }], atWallet);
    expect(fromWallet.step).toBe("UPLOAD_RECEIPT");
    expect(run([{ type: "BACK" }], fromWallet).step).toBe("WALLET_DETAILS");
    const fromBank = run([{ type: "PAYMENT_MADE" }], atBank);
    expect(fromBank.step).toBe("UPLOAD_RECEIPT");
    expect(run([{ type: "BACK" }], fromBank).step).toBe("BANK_DETAILS");
  });

  it("UPLOAD_RECEIPT → SUCCESS on an accepted receipt; a failed upload stays", () => {
    const uploading = run([{ type: "PAYMENT_MADE" }, { type: "UPLOAD_STARTED" }], atWallet);
    expect(uploading).toMatchObject({ step: "UPLOAD_RECEIPT", busy: "uploading" });
    expect(run([{ type: "UPLOAD_FAILED" }], uploading)).toMatchObject({
      step: "UPLOAD_RECEIPT",
      busy: null,
    });
    const done = run([{ type: "UPLOAD_SUCCEEDED" }], uploading);
    expect(done.step).toBe("SUCCESS");
    // "Make Another Deposit" starts over.
    expect(run([{ type: "START_OVER" }], done)).toEqual(initialDepositState);
  });

  it("ignores events that do not belong to the current step", () => {
    expect(run([{ type: "PAYMENT_MADE" }])).toBe(initialDepositState);
    expect(run([{ type: "SUBMIT_AMOUNT", amount: 5 }])).toBe(initialDepositState);
    expect(run([{ type: "START_OVER" }], atWallet)).toBe(atWallet);
    expect(run([{ type: "WALLET_LOADED", wallet: walletFixture }], atBank)).toBe(atBank);
    expect(run([{ type: "CHOOSE_METHOD", method: bank }], atWallet)).toBe(atWallet);
    expect(run([{ type: "UPLOAD_SUCCEEDED" }], atWallet)).toBe(atWallet);
  });
});

/** A scripted API and a recorder of dispatches and toasts around the real reducer. */
function harness(overrides: Partial<DepositApi> = {}) {
  const calls: string[] = [];
  const toasts: Array<["success" | "error", string]> = [];
  let state: DepositState = initialDepositState;
  const api: DepositApi = {
    createDeposit: async (request) => {
      calls.push(`create ${request.payment_method_id} ${request.amount}`);
      return { depositId: deposit.id, transactionHash: deposit.transactionHash };
    },
    fetchWallet: async (id) => {
      calls.push(`wallet ${id}`);
      return walletFixture;
    },
    cancelDeposit: async (id) => {
      calls.push(`cancel ${id}`);
    },
    uploadReceipt: async (id, _file, hash) => {
      calls.push(`receipt ${id} ${hash}`);
      return null;
    },
    newIdempotencyKey: () => "key-1",
    ...overrides,
  };
  const context = {
    api,
    notify: {
      success: (text: string) => void toasts.push(["success", text]),
      error: (text: string) => void toasts.push(["error", text]),
    },
    dispatch: (event: DepositEvent) => {
      state = depositReducer(state, event);
    },
  };
  return {
    calls,
    toasts,
    context,
    get state() {
      return state;
    },
    choose(method = bitcoin) {
      context.dispatch({ type: "CHOOSE_METHOD", method });
    },
  };
}

const methods = [bitcoin, bank, westernUnion, litecoinOff];

describe("deposit actions: Fund Account and its SPEC §8 messages", () => {
  it("crypto: opens the deposit, fetches the wallet and shows the details", async () => {
    const h = harness();
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.calls).toEqual(["create bitcoin 100", "wallet bitcoin"]);
    expect(h.state.step).toBe("WALLET_DETAILS");
    expect(h.toasts).toEqual([]);
  });

  it("bank: opens the deposit and shows the bank details without a wallet call", async () => {
    const h = harness();
    h.choose(bank);
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.calls).toEqual(["create bank-transfer 100"]);
    expect(h.state.step).toBe("BANK_DETAILS");
  });

  it('"Invalid payment method" for a method the list does not know', async () => {
    const h = harness();
    h.choose(bitcoin);
    await submitDepositAmount(h.context, h.state, [bank], 100);
    expect(h.toasts).toEqual([["error", m.invalidPaymentMethod]]);
    expect(h.calls).toEqual([]);
    expect(h.state).toEqual(initialDepositState);
  });

  it('"This payment method is not available" for a method without its details', async () => {
    const h = harness();
    h.choose(bank);
    const stripped = { ...bank, additional_details: { account_name: "X" } };
    await submitDepositAmount(h.context, h.state, [stripped], 100);
    expect(h.toasts).toEqual([["error", m.methodNotAvailable]]);
    expect(h.calls).toEqual([]);
    expect(h.state.step).toBe("SELECT_METHOD");
  });

  it('"Invalid deposit response" when the reply has no deposit_id', async () => {
    const h = harness({ createDeposit: async () => null });
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.toasts).toEqual([["error", m.invalidDepositResponse]]);
    expect(h.state).toEqual(initialDepositState);
  });

  it('"Deposit failed" (state resets) when the call fails without a usable message', async () => {
    const h = harness({
      createDeposit: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.toasts).toEqual([["error", m.depositFailed]]);
    expect(h.state).toEqual(initialDepositState);
  });

  it("the server's own message when it refuses the deposit", async () => {
    const h = harness({
      createDeposit: async () => {
        throw new ApiError(422, m.methodNotAvailable, "PAYMENT_METHOD_NOT_CONFIGURED", {});
      },
    });
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.toasts).toEqual([["error", m.methodNotAvailable]]);
  });

  it("sends the fee the form showed; a fee changed since starts over and reloads the methods", async () => {
    const sent: Array<{ amount: number; expected_fee?: number }> = [];
    const changed = "The fee for Bank Transfer changed from $1.50 to $3.00 since you saw it.";
    const h = harness({
      createDeposit: async (request) => {
        sent.push({ amount: request.amount, expected_fee: request.expected_fee });
        throw new ApiError(409, changed, "FEE_CHANGED", {});
      },
    });
    let reloads = 0;
    const context = {
      ...h.context,
      notify: { ...h.context.notify, feeChanged: () => void reloads++ },
    };
    // $1.00 + 0.5 % on $100.00 = $1.50, as the amount form shows it.
    const priced = { ...bank, deposit_fee_fixed_cents: 100, deposit_fee_basis_points: 50 };
    h.choose(priced);
    await submitDepositAmount(context, h.state, [priced], 100);
    expect(sent).toEqual([{ amount: 100, expected_fee: 1.5 }]);
    expect(h.toasts).toEqual([["error", changed]]);
    expect(reloads).toBe(1);
    expect(h.state).toEqual(initialDepositState);
  });

  it('"Wallet address not available" then "Failed to get wallet address", deposit cancelled', async () => {
    const h = harness({ fetchWallet: async () => ({ ...walletFixture, wallet_address: "" }) });
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.toasts).toEqual([
      ["error", m.walletNotAvailable],
      ["error", m.walletFailed],
    ]);
    expect(h.calls).toEqual(["create bitcoin 100", `cancel ${deposit.id}`]);
    expect(h.state).toEqual(initialDepositState);
  });

  it("the server's walletNotAvailable reply says the same two things", async () => {
    const h = harness({
      fetchWallet: async (): Promise<WalletData> => {
        throw new ApiError(422, m.walletNotAvailable, "WALLET_ADDRESS_UNAVAILABLE", {});
      },
    });
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.toasts.map(([, text]) => text)).toEqual([m.walletNotAvailable, m.walletFailed]);
    expect(h.calls).toContain(`cancel ${deposit.id}`);
  });

  it('"Payment method currently unavailable" (inactive), deposit cancelled', async () => {
    const h = harness({
      fetchWallet: async (): Promise<WalletData> => {
        throw new ApiError(422, m.methodCurrentlyUnavailable, "PAYMENT_METHOD_INACTIVE", {});
      },
    });
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.toasts).toEqual([["error", m.methodCurrentlyUnavailable]]);
    expect(h.calls).toContain(`cancel ${deposit.id}`);
    expect(h.state).toEqual(initialDepositState);
  });

  it("decides on the wallet refusal's code, not its text", async () => {
    const reworded = harness({
      fetchWallet: async (): Promise<WalletData> => {
        throw new ApiError(422, "Method paused by staff", "PAYMENT_METHOD_INACTIVE", {});
      },
    });
    reworded.choose();
    await submitDepositAmount(reworded.context, reworded.state, methods, 100);
    expect(reworded.toasts).toEqual([["error", m.methodCurrentlyUnavailable]]);

    const uncoded = harness({
      fetchWallet: async (): Promise<WalletData> => {
        throw new ApiError(422, m.methodCurrentlyUnavailable, null, {});
      },
    });
    uncoded.choose();
    await submitDepositAmount(uncoded.context, uncoded.state, methods, 100);
    expect(uncoded.toasts).toEqual([["error", m.walletFailed]]);
  });

  it('a method switched off since the list loaded: "Payment method currently unavailable"', async () => {
    const h = harness();
    h.choose();
    await submitDepositAmount(h.context, h.state, [{ ...bitcoin, is_active: false }], 100);
    expect(h.toasts).toEqual([["error", m.methodCurrentlyUnavailable]]);
    expect(h.calls).toEqual([]);
  });

  it('any other wallet failure: "Failed to get wallet address", plus "Failed to cancel deposit" when the cancel fails too', async () => {
    const h = harness({
      fetchWallet: async (): Promise<WalletData> => {
        throw new TypeError("Failed to fetch");
      },
      cancelDeposit: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.toasts).toEqual([
      ["error", m.walletFailed],
      ["error", m.cancelFailed],
    ]);
    expect(h.state).toEqual(initialDepositState);
  });

  it("sends the Idempotency-Key the API hands out", async () => {
    const keys: string[] = [];
    const h = harness({
      createDeposit: async (_request, key) => {
        keys.push(key);
        return { depositId: 1, transactionHash: "DEP-1" };
      },
    });
    h.choose(bank);
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(keys).toEqual(["key-1"]);
  });
});

describe("deposit actions: back from wallet details and the receipt", () => {
  async function atWalletDetails(overrides: Partial<DepositApi> = {}) {
    const h = harness(overrides);
    h.choose();
    await submitDepositAmount(h.context, h.state, methods, 100);
    expect(h.state.step).toBe("WALLET_DETAILS");
    return h;
  }

  it("back cancels the deposit via DELETE and resets", async () => {
    const h = await atWalletDetails();
    await cancelOpenDeposit(h.context, h.state);
    expect(h.calls.at(-1)).toBe(`cancel ${deposit.id}`);
    expect(h.state).toEqual(initialDepositState);
  });

  it('"Failed to cancel deposit" keeps the details on screen', async () => {
    const h = await atWalletDetails({
      cancelDeposit: async () => {
        throw new ApiError(500, "Internal Server Error", "INTERNAL", {});
      },
    });
    await cancelOpenDeposit(h.context, h.state);
    expect(h.toasts).toEqual([["error", m.cancelFailed]]);
    expect(h.state).toMatchObject({ step: "WALLET_DETAILS", busy: null });
  });

  it("a deposit no longer awaiting payment (409) has nothing to cancel: the flow resets", async () => {
    const h = await atWalletDetails({
      cancelDeposit: async () => {
        throw new ApiError(409, m.depositNotAwaitingPayment, "DEPOSIT_NOT_AWAITING_PAYMENT", {});
      },
    });
    await cancelOpenDeposit(h.context, h.state);
    expect(h.toasts).toEqual([["error", m.cancelFailed]]);
    expect(h.state).toEqual(initialDepositState);
  });

  it("another 409 (a reused Idempotency-Key) keeps the details: the deposit may still be open", async () => {
    const h = await atWalletDetails({
      cancelDeposit: async () => {
        throw new ApiError(409, "Key reused", "IDEMPOTENCY_KEY_REUSED", {});
      },
    });
    await cancelOpenDeposit(h.context, h.state);
    expect(h.toasts).toEqual([["error", m.cancelFailed]]);
    expect(h.state).toMatchObject({ step: "WALLET_DETAILS", busy: null });
  });

  it('uploads the receipt with the hash: "Deposit submitted for review" → SUCCESS', async () => {
    const h = await atWalletDetails();
    h.context.dispatch({ type: "PAYMENT_MADE" });
    const outcome = await submitReceipt(
      h.context,
      h.state,
      fileOf(pngBytes, "receipt.png"),
      deposit.transactionHash,
    );
    expect(outcome).toEqual({ ok: true });
    expect(h.calls.at(-1)).toBe(`receipt ${deposit.id} ${deposit.transactionHash}`);
    expect(h.toasts).toEqual([["success", m.depositSubmitted]]);
    expect(h.state.step).toBe("SUCCESS");
  });

  it('"Failed to upload receipt" (or the server\'s word) keeps the upload step', async () => {
    const h = await atWalletDetails({
      uploadReceipt: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    h.context.dispatch({ type: "PAYMENT_MADE" });
    const outcome = await submitReceipt(h.context, h.state, fileOf(pngBytes, "r.png"), "DEP-41ABC");
    expect(outcome.ok).toBe(false);
    expect(h.toasts).toEqual([["error", m.receiptFailed]]);
    expect(h.state).toMatchObject({ step: "UPLOAD_RECEIPT", busy: null });

    const refused = await atWalletDetails({
      uploadReceipt: async () => {
        throw new ApiError(422, m.receiptType, "VALIDATION_FAILED", { receipt: [m.receiptType] });
      },
    });
    refused.context.dispatch({ type: "PAYMENT_MADE" });
    await submitReceipt(refused.context, refused.state, fileOf(pngBytes, "r.png"), "DEP-41ABC");
    expect(refused.toasts).toEqual([["error", m.receiptType]]);
  });
});
