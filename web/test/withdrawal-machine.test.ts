import {
  type CreateWithdrawalRequest,
  createWithdrawalSchema,
  fundingMessages as m,
} from "@tp/domain/funding";
import { describe, expect, it } from "vitest";
import { ApiError } from "../src/api/client.ts";
import type { CreatedWithdrawal } from "../src/api/create-withdrawal.ts";
import {
  confirmWithdrawal,
  type WithdrawalApi,
  withdrawalProblemOf,
} from "../src/funding/withdrawal-actions.ts";
import {
  initialWithdrawalState,
  type WithdrawalEvent,
  type WithdrawalState,
  withdrawalReducer,
} from "../src/funding/withdrawal-machine.ts";
import { bank, bitcoin, methodFixture } from "./funding-fixtures.ts";

const request: CreateWithdrawalRequest = createWithdrawalSchema.parse({
  payment_method_id: "bitcoin",
  amount: 50,
  withdrawal_details: { wallet_address: "bc1qtraderaddress000000" },
});

const result = { withdrawalId: 9, transactionHash: "WDR-9XYZ", accountBalance: 1184.5 };

function run(events: WithdrawalEvent[], from: WithdrawalState = initialWithdrawalState) {
  return events.reduce(withdrawalReducer, from);
}

const atConfirm = run([
  { type: "CHOOSE_METHOD", method: bitcoin },
  { type: "REVIEW", request, idempotencyKey: "key-1" },
]);

describe("withdrawal reducer", () => {
  it("starts at SELECT_METHOD", () => {
    expect(initialWithdrawalState).toMatchObject({ step: "SELECT_METHOD", method: null });
  });

  it("SELECT_METHOD → FORM for an active method; an inactive one cannot be chosen", () => {
    expect(run([{ type: "CHOOSE_METHOD", method: bitcoin }])).toMatchObject({
      step: "FORM",
      method: bitcoin,
    });
    // Withdrawals do not need the operator's own wallet configured, only the method on.
    const unconfigured = { ...bitcoin, is_available: false, wallet_address: null };
    expect(run([{ type: "CHOOSE_METHOD", method: unconfigured }]).step).toBe("FORM");
    const off = methodFixture("usdt", { is_active: false, is_available: false });
    const refused = run([{ type: "CHOOSE_METHOD", method: off }]);
    expect(refused.step).toBe("SELECT_METHOD");
    expect(refused.unavailableMethodId).toBe("usdt");
  });

  it("FORM → SELECT_METHOD on Change method; choosing another method swaps the form", () => {
    const form = run([{ type: "CHOOSE_METHOD", method: bitcoin }]);
    expect(run([{ type: "CHANGE_METHOD" }], form)).toEqual(initialWithdrawalState);
    expect(run([{ type: "CHOOSE_METHOD", method: bank }], form).method).toBe(bank);
  });

  it("FORM → CONFIRM_WITHDRAWAL with the checked request and its idempotency key", () => {
    expect(atConfirm).toMatchObject({
      step: "CONFIRM_WITHDRAWAL",
      request,
      idempotencyKey: "key-1",
      busy: false,
    });
    // A request for another method than the one chosen is not reviewed.
    const form = run([{ type: "CHOOSE_METHOD", method: bank }]);
    expect(run([{ type: "REVIEW", request, idempotencyKey: "k" }], form)).toBe(form);
  });

  it("Back on the confirmation resets the whole flow", () => {
    expect(run([{ type: "BACK" }], atConfirm)).toEqual(initialWithdrawalState);
  });

  it("Confirm → busy → SUCCESS only once the server stored it", () => {
    const sending = run([{ type: "CONFIRM" }], atConfirm);
    expect(sending).toMatchObject({ step: "CONFIRM_WITHDRAWAL", busy: true });
    // Back and a second Confirm do nothing while the request is in flight.
    expect(run([{ type: "BACK" }], sending)).toBe(sending);
    expect(run([{ type: "CONFIRM" }], sending)).toBe(sending);
    const done = run([{ type: "SUCCEEDED", result }], sending);
    expect(done).toMatchObject({ step: "SUCCESS", busy: false, result });
    expect(run([{ type: "START_OVER" }], done)).toEqual(initialWithdrawalState);
  });

  it("a refused Confirm stays on the confirmation with the reason, keeping the key", () => {
    const refused = run(
      [{ type: "CONFIRM" }, { type: "FAILED", message: m.insufficientBalance, problem: "balance" }],
      atConfirm,
    );
    expect(refused).toMatchObject({
      step: "CONFIRM_WITHDRAWAL",
      busy: false,
      idempotencyKey: "key-1",
      error: { message: m.insufficientBalance, problem: "balance" },
    });
    // Trying again clears the old reason.
    expect(run([{ type: "CONFIRM" }], refused).error).toBeNull();
  });

  it("ignores events that do not belong to the current step", () => {
    expect(run([{ type: "CONFIRM" }])).toBe(initialWithdrawalState);
    expect(run([{ type: "SUCCEEDED", result }], atConfirm)).toBe(atConfirm);
    expect(run([{ type: "START_OVER" }], atConfirm)).toBe(atConfirm);
    expect(run([{ type: "CHOOSE_METHOD", method: bank }], atConfirm)).toBe(atConfirm);
  });
});

function harness(
  createWithdrawal: WithdrawalApi["createWithdrawal"],
  reloadMethod: WithdrawalApi["reloadMethod"] = async () => bitcoin,
) {
  const toasts: Array<["success" | "error", string]> = [];
  let state = atConfirm;
  let keys = 1;
  const context = {
    api: { createWithdrawal, reloadMethod, newIdempotencyKey: () => `key-${++keys}` },
    notify: {
      success: (text: string) => void toasts.push(["success", text]),
      error: (text: string) => void toasts.push(["error", text]),
    },
    dispatch: (event: WithdrawalEvent) => {
      state = withdrawalReducer(state, event);
    },
  };
  return {
    toasts,
    context,
    get state() {
      return state;
    },
  };
}

const created: CreatedWithdrawal = { ...result, message: m.withdrawalRequested };

describe("withdrawal actions: Confirm and its messages", () => {
  it("sends the reviewed request with its key, then shows SUCCESS", async () => {
    const sent: Array<[CreateWithdrawalRequest, string]> = [];
    const h = harness(async (body, key) => {
      sent.push([body, key]);
      return created;
    });
    await confirmWithdrawal(h.context, h.state);
    expect(sent).toEqual([[request, "key-1"]]);
    expect(request.withdrawal_details).toEqual({
      amount: 50,
      wallet_address: "bc1qtraderaddress000000",
    });
    expect(h.toasts).toEqual([["success", m.withdrawalRequested]]);
    expect(h.state).toMatchObject({ step: "SUCCESS", result });
  });

  it('"Invalid withdrawal method" for an id the platform does not have', async () => {
    let called = false;
    const h = harness(async () => {
      called = true;
      return created;
    });
    const bogus = { ...h.state, request: { ...request, payment_method_id: "paypal" as never } };
    await confirmWithdrawal(h.context, bogus);
    expect(called).toBe(false);
    expect(h.toasts).toEqual([["error", m.invalidWithdrawalMethod]]);
    expect(h.state.error?.message).toBe(m.invalidWithdrawalMethod);
  });

  it('"Withdrawal failed" when there is no server message to show', async () => {
    const h = harness(async () => {
      throw new ApiError(500, "Internal Server Error", "INTERNAL", {});
    });
    await confirmWithdrawal(h.context, h.state);
    expect(h.toasts).toEqual([["error", m.withdrawalFailed]]);
    expect(h.state).toMatchObject({
      step: "CONFIRM_WITHDRAWAL",
      error: { message: m.withdrawalFailed, problem: "other" },
    });
  });

  it.each([
    [m.emailNotVerified, "EMAIL_NOT_VERIFIED", 403, "email"],
    [m.identityNotVerified, "IDENTITY_NOT_VERIFIED", 403, "identity"],
    [m.insufficientBalance, "INSUFFICIENT_FUNDS", 422, "balance"],
    [m.methodCurrentlyUnavailable, "PAYMENT_METHOD_INACTIVE", 422, "other"],
  ] as const)(
    "the server's message %s is shown as it is (%s)",
    async (message, code, status, problem) => {
      const h = harness(async () => {
        throw new ApiError(status, message, code, {});
      });
      await confirmWithdrawal(h.context, h.state);
      expect(h.toasts).toEqual([["error", message]]);
      expect(h.state.error).toEqual({ message, problem });
      expect(h.state.step).toBe("CONFIRM_WITHDRAWAL");
    },
  );

  it("a fee staff changed since the form: the new fee is shown, and Confirm sends it with a new key", async () => {
    const changed =
      "The fee for Bitcoin changed from $0.00 to $2.50 since you saw it. Nothing was charged: check the new amounts and confirm again.";
    const sent: Array<[CreateWithdrawalRequest, string]> = [];
    const dearer = {
      ...bitcoin,
      withdrawal_fee_fixed_cents: 200,
      withdrawal_fee_basis_points: 100,
    };
    let refuse = true;
    const h = harness(
      async (body, key) => {
        sent.push([body, key]);
        if (refuse) throw new ApiError(409, changed, "FEE_CHANGED", {});
        return created;
      },
      async (id) => (id === "bitcoin" ? dearer : null),
    );
    const shown = { ...h.state, request: { ...request, expected_fee: 0 } };
    await confirmWithdrawal(h.context, shown);
    expect(h.toasts).toEqual([["error", changed]]);
    // $2.00 + 1 % of $50.00 = $2.50: the confirmation now shows and sends that fee.
    expect(h.state).toMatchObject({
      step: "CONFIRM_WITHDRAWAL",
      busy: false,
      method: dearer,
      request: { ...request, expected_fee: 2.5 },
      idempotencyKey: "key-2",
      error: { message: changed, problem: "other" },
    });
    refuse = false;
    await confirmWithdrawal(h.context, h.state);
    expect(sent.map(([body, key]) => [body.expected_fee, key])).toEqual([
      [0, "key-1"],
      [2.5, "key-2"],
    ]);
    expect(h.state.step).toBe("SUCCESS");
  });

  it("a changed fee that would take the whole amount sends the trader back to the form", () => {
    const busy = run([{ type: "CONFIRM" }], atConfirm);
    const greedy = { ...bitcoin, withdrawal_fee_fixed_cents: 5_000 };
    expect(
      run([{ type: "FEE_CHANGED", method: greedy, message: "changed", idempotencyKey: "k" }], busy),
    ).toEqual({ ...initialWithdrawalState, step: "FORM", method: greedy });
    // Not while idle, and not for another method.
    expect(
      run(
        [{ type: "FEE_CHANGED", method: greedy, message: "changed", idempotencyKey: "k" }],
        atConfirm,
      ),
    ).toBe(atConfirm);
    expect(
      run([{ type: "FEE_CHANGED", method: bank, message: "changed", idempotencyKey: "k" }], busy),
    ).toBe(busy);
  });

  it("tells the problems apart by code, never by a network failure", () => {
    expect(withdrawalProblemOf(new TypeError("Failed to fetch"))).toBe("other");
    expect(withdrawalProblemOf(new ApiError(403, "Reworded", "EMAIL_NOT_VERIFIED", {}))).toBe(
      "email",
    );
    expect(withdrawalProblemOf(new ApiError(403, m.identityNotVerified, "FORBIDDEN", {}))).toBe(
      "other",
    );
    expect(withdrawalProblemOf(new ApiError(403, m.emailNotVerified, null, {}))).toBe("other");
  });
});
