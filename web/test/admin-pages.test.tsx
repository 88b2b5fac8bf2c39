import { screen, waitFor, within } from "@testing-library/react";
import {
  type AdminPaymentMethod,
  type AdminUserDetail,
  adminMessages,
  type LedgerReport,
  type PaymentMethodChange,
} from "@tp/domain/admin-api";
import type { UserView } from "@tp/domain/api";
import { feeMessages } from "@tp/domain/fees";
import { describe, expect, it } from "vitest";
import { storeSession, success, trader } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

const staff: UserView = { ...trader, id: 1, email: "staff@example.com", role: "admin" };
const emptyList = success({ data: [], pagination: { last_page: 1, current_page: 1, total: 0 } });

function renderAsStaff(path: string, routes: Parameters<typeof renderApp>[1] = {}) {
  storeSession("staff-token", staff);
  return renderApp(path, {
    "GET /user": success({ user: staff }),
    "GET /admin/deposits": emptyList,
    "GET /admin/withdrawals": emptyList,
    "GET /admin/verifications": emptyList,
    "GET /admin/payment-method-changes": success([]),
    // The reconciliation page's journal section: every chain verifies (journal-verify.test.tsx).
    "GET /admin/journal/verify": success({
      ok: true,
      checked_at: "2026-01-15T12:00:00.000Z",
      records: { postings: 0, trades_placed: 0, trades_settled: 0, audit: 0 },
      chains: 0,
      checkpoints: 0,
      latest_checkpoint: null,
      problem: null,
    }),
    ...routes,
  });
}

const bank: AdminPaymentMethod = {
  id: "bank-transfer",
  name: "Bank Transfer",
  kind: "bank",
  is_active: true,
  is_recommended: false,
  is_available: false,
  wallet_address: null,
  instructions: [],
  additional_details: { bank_name: "" },
  sort_order: 7,
  updated_at: "2026-01-15T12:00:00.000Z",
  deposit_fee_fixed_cents: 0,
  deposit_fee_basis_points: 0,
  withdrawal_fee_fixed_cents: 0,
  withdrawal_fee_basis_points: 0,
};

describe("payment methods", () => {
  it("edits a bank method: details as key/values, empty ones left out, the server's message shown", async () => {
    const { user, callsTo } = renderAsStaff("/admin/payment-methods", {
      "GET /admin/payment-methods": success([bank]),
      "PUT /admin/payment-methods/bank-transfer": success(
        { change: { id: 4 } },
        adminMessages.paymentMethodChangeProposed,
      ),
    });
    expect(await screen.findByText("Needs a bank name before traders can use it.")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Edit Bank Transfer" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Bank Transfer" });
    // The bank's details are offered as rows even when none is stored yet.
    const keys = within(dialog)
      .getAllByLabelText(/^Detail \d+ key$/)
      .map((input) => (input as HTMLInputElement).value);
    expect(keys).toEqual(["bank_name", "account_name", "account_number", "swift_code"]);

    await fill(user, within(dialog).getByLabelText("Detail 1 value"), "First Example Bank");
    await fill(user, within(dialog).getByLabelText("Detail 4 value"), "FEXBGB2L");
    await user.click(within(dialog).getByLabelText("Recommended"));
    await user.click(within(dialog).getByRole("button", { name: "+ Add instruction" }));
    await fill(user, within(dialog).getByLabelText("Instruction 1"), "Use the reference as memo");
    await user.click(within(dialog).getByRole("button", { name: "Propose change" }));

    expect(await findToast(adminMessages.paymentMethodChangeProposed)).toBeInTheDocument();
    expect(callsTo("PUT /admin/payment-methods/bank-transfer")[0]?.body).toEqual({
      name: "Bank Transfer",
      is_active: true,
      is_recommended: true,
      instructions: ["Use the reference as memo"],
      additional_details: { bank_name: "First Example Bank", swift_code: "FEXBGB2L" },
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("sets fees in dollars and percent, sending only the fees changed as cents and basis points", async () => {
    const { user, callsTo } = renderAsStaff("/admin/payment-methods", {
      "GET /admin/payment-methods": success([{ ...bank, withdrawal_fee_fixed_cents: 150 }]),
      "PUT /admin/payment-methods/bank-transfer": success(
        { change: { id: 5 } },
        adminMessages.paymentMethodChangeProposed,
      ),
    });
    expect(
      await screen.findByText("Deposit: No fees · Withdrawal: $1.50", { exact: false }),
    ).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Edit Bank Transfer" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Bank Transfer" });
    expect(within(dialog).getByLabelText("Withdrawal fee, fixed (USD)")).toHaveValue("1.5");
    const percent = within(dialog).getByLabelText("Deposit fee (%)");
    await fill(user, percent, "1.255");
    await user.click(within(dialog).getByRole("button", { name: "Propose change" }));
    // The form validates asynchronously: under a loaded CI machine the error lands after the click.
    await waitFor(() =>
      expect(percent).toHaveAccessibleDescription("Enter a percentage with at most 2 decimals"),
    );
    await user.clear(percent);
    await fill(user, percent, "60");
    await user.click(within(dialog).getByRole("button", { name: "Propose change" }));
    await waitFor(() => expect(percent).toHaveAccessibleDescription(feeMessages.basisPointsMax));
    expect(callsTo("PUT /admin/payment-methods/bank-transfer")).toHaveLength(0);

    await user.clear(percent);
    await fill(user, percent, "1.25");
    const fixed = within(dialog).getByLabelText("Deposit fee, fixed (USD)");
    await user.clear(fixed);
    await fill(user, fixed, "2");
    await user.click(within(dialog).getByRole("button", { name: "Propose change" }));
    expect(await findToast(adminMessages.paymentMethodChangeProposed)).toBeInTheDocument();
    expect(callsTo("PUT /admin/payment-methods/bank-transfer")[0]?.body).toMatchObject({
      deposit_fee_fixed_cents: 200,
      deposit_fee_basis_points: 125,
    });
    const sent = callsTo("PUT /admin/payment-methods/bank-transfer")[0]?.body as object;
    expect(Object.keys(sent)).not.toContain("withdrawal_fee_fixed_cents");
  });

  it("refuses a detail with a value but a bad key, sending nothing", async () => {
    const { user, callsTo } = renderAsStaff("/admin/payment-methods", {
      "GET /admin/payment-methods": success([bank]),
    });
    await user.click(await screen.findByRole("button", { name: "Edit Bank Transfer" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "+ Add detail" }));
    await fill(user, within(dialog).getByLabelText("Detail 5 key"), "9lives");
    await fill(user, within(dialog).getByLabelText("Detail 5 value"), "x");
    await user.click(within(dialog).getByRole("button", { name: "Propose change" }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText("Detail 5 key")).toHaveAccessibleDescription(
        "Keys are letters, digits, spaces and underscores",
      ),
    );
    expect(callsTo("PUT /admin/payment-methods/bank-transfer")).toHaveLength(0);
  });
});

describe("payment-method changes and roles (four eyes)", () => {
  const change = (id: number, proposer: { id: number; email: string }): PaymentMethodChange => ({
    id,
    payment_method_id: "bank-transfer",
    payment_method_name: "Bank Transfer",
    changes: { additional_details: { bank_name: "Other Bank" } },
    status: "pending",
    proposed_by: proposer,
    proposed_at: "2026-01-15T12:00:00.000Z",
    decided_by: null,
    decided_at: null,
  });

  it("lists pending changes; another admin's can be confirmed, one's own only discarded", async () => {
    const { user, callsTo } = renderAsStaff("/admin/payment-methods", {
      "GET /admin/payment-methods": success([bank]),
      "GET /admin/payment-method-changes": success([
        change(5, { id: 2, email: "other-admin@example.com" }),
        change(6, { id: 1, email: "staff@example.com" }),
      ]),
      "POST /admin/payment-method-changes/5/confirm": success(
        {},
        adminMessages.paymentMethodChangeConfirmed,
      ),
    });
    expect(await screen.findByRole("status", { name: "2 awaiting second approval" })).toBeVisible();
    const others = screen.getAllByRole("article", { name: "Proposed change to Bank Transfer" });
    expect(within(others[0]!).getByText(/other-admin@example\.com/)).toBeVisible();
    expect(within(others[0]!).getByText("Bank name: Other Bank")).toBeVisible();
    expect(within(others[1]!).queryByRole("button", { name: "Confirm change" })).toBeNull();
    expect(within(others[1]!).getByText("Another admin must confirm your change.")).toBeVisible();
    await user.click(within(others[0]!).getByRole("button", { name: "Confirm change" }));
    expect(await findToast(adminMessages.paymentMethodChangeConfirmed)).toBeInTheDocument();
    expect(callsTo("POST /admin/payment-method-changes/5/confirm")).toHaveLength(1);
  });

  it("shows support the back office read-only: no edit, no confirm, no broadcast section", async () => {
    const support: UserView = { ...staff, id: 3, email: "support@example.com", role: "support" };
    storeSession("support-token", support);
    renderApp("/admin/payment-methods", {
      "GET /user": success({ user: support }),
      "GET /admin/deposits": emptyList,
      "GET /admin/withdrawals": emptyList,
      "GET /admin/verifications": emptyList,
      "GET /admin/payment-methods": success([bank]),
      "GET /admin/payment-method-changes": success([
        change(5, { id: 2, email: "other-admin@example.com" }),
      ]),
    });
    expect(await screen.findByRole("heading", { name: "Bank Transfer" })).toBeVisible();
    expect(screen.getByRole("status", { name: "1 awaiting second approval" })).toBeVisible();
    expect(screen.queryByRole("button", { name: "Edit Bank Transfer" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Confirm change" })).toBeNull();
    const sections = screen.getByRole("navigation", { name: "Back office sections" });
    expect(within(sections).getByRole("link", { name: /Deposits/ })).toBeVisible();
    expect(within(sections).queryByRole("link", { name: /Notifications/ })).toBeNull();
  });
});

const detail: AdminUserDetail = {
  user: {
    id: 7,
    email: "ada@example.com",
    username: "ada.lovelace",
    name: "Ada Lovelace",
    role: "trader",
    country: "United Kingdom",
    created_at: "2026-01-01T00:00:00.000Z",
    email_verified_at: "2026-01-02T00:00:00.000Z",
    kyc_verified_at: null,
    account_balance: 829.5,
    practice_balance: 10000,
    closure: null,
    phone_number: "+44 20 7946 0000",
    plan: "basic",
  },
  restrictions: { country: null, exclusion: null },
  ledger: [
    {
      entry_id: 3,
      kind: "withdrawal_hold",
      reference: "withdrawal:1",
      account: "real",
      amount: -120,
      created_at: "2026-01-03T00:00:00.000Z",
    },
  ],
  trades: [],
  deposits: [],
  withdrawals: [],
  verifications: [],
  sessions: [
    {
      id: 40,
      created_at: "2026-01-03T00:00:00.000Z",
      last_seen_at: "2026-01-03T01:00:00.000Z",
      expires_at: "2999-01-01T00:00:00.000Z",
      revoked_at: null,
      ip: "203.0.113.9",
      user_agent: "Firefox",
    },
  ],
};

describe("users", () => {
  it("searches with q and opens a user's balances, ledger and sessions", async () => {
    const { user, callsTo } = renderAsStaff("/admin/users", {
      "GET /admin/users": success({
        data: [{ ...detail.user }],
        pagination: { last_page: 1, current_page: 1, total: 1 },
      }),
      "GET /admin/users/7": success(detail),
      "POST /admin/users/7/sessions/40/revoke": success({ revoked: 1 }, "Session revoked"),
      "GET /admin/users/7/sign-in-history": success({
        data: [
          {
            id: 3,
            attempted_at: "2026-01-03T00:00:00.000Z",
            ip: "198.51.100.23",
            browser: "Firefox on Linux",
            result: "wrong_password",
          },
        ],
        pagination: { last_page: 1, current_page: 1, total: 1 },
      }),
    });
    await fill(user, await screen.findByLabelText("Search users"), "lovelace");
    await user.click(screen.getByRole("button", { name: "Search" }));
    await waitFor(() =>
      expect(callsTo("GET /admin/users").at(-1)?.path).toBe(
        "/admin/users?q=lovelace&page=1&limit=25",
      ),
    );
    await user.click(await screen.findByRole("link", { name: "Ada Lovelace" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
    expect(screen.getByText("$829.50")).toBeVisible();
    expect(screen.getByText("-$120.00")).toBeVisible();

    await user.click(screen.getByRole("tab", { name: /Sessions/ }));
    // The staff member sees the trader's sign-in history too (issue 12, item 5).
    expect(await screen.findByText("198.51.100.23")).toBeVisible();
    expect(screen.getByText("Wrong password")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Revoke session 40" }));
    expect(await findToast("Session revoked")).toBeInTheDocument();
    expect(callsTo("POST /admin/users/7/sessions/40/revoke")).toHaveLength(1);
  });
});

describe("a user's restrictions", () => {
  it("says plainly when real money is blocked by the country and by a self-exclusion", async () => {
    renderAsStaff("/admin/users/7", {
      "GET /admin/users/7": success({
        ...detail,
        user: { ...detail.user, country: "France" },
        restrictions: {
          country: "Real money blocked: France is restricted",
          exclusion: {
            kind: "self_exclusion",
            started_at: "2026-01-03T00:00:00.000Z",
            ends_at: "2026-07-03T00:00:00.000Z",
          },
        },
      }),
      "GET /admin/users/7/sign-in-history": emptyList,
    });
    const notice = await screen.findByRole("region", { name: "Restrictions" });
    expect(within(notice).getByText("Real money blocked: France is restricted")).toBeVisible();
    expect(within(notice).getByText(/^Self-excluded until .*2026/)).toBeVisible();
  });

  it("shows no notice for a trader with none", async () => {
    renderAsStaff("/admin/users/7", {
      "GET /admin/users/7": success(detail),
      "GET /admin/users/7/sign-in-history": emptyList,
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
    expect(screen.queryByRole("region", { name: "Restrictions" })).toBeNull();
  });
});

describe("reconciliation", () => {
  const report: LedgerReport = {
    ok: false,
    violations: ["journal entry 9 does not sum to zero"],
    checked_at: "2026-01-15T12:00:00.000Z",
    currency: "USD",
    balances_by_kind: { "trader:real": 829.5, "withdrawals:held": 420.5 },
    held_withdrawals: { count: 2, amount: 420.5 },
    confirmed_deposits: { count: 2, amount: 1250 },
    paid_withdrawals: { count: 0, amount: 0 },
    trading_results: { real: 12.5, practice: -3 },
  };

  it("shows each violation and the figures", async () => {
    renderAsStaff("/admin/reconciliation", { "GET /admin/ledger/check": success(report) });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("1 invariant violation");
    expect(alert).toHaveTextContent("journal entry 9 does not sum to zero");
    expect(screen.getByText("$1,250.00")).toBeVisible();
    expect(screen.getByText("2 withdrawals pending")).toBeVisible();
  });

  it("says so when every invariant holds", async () => {
    renderAsStaff("/admin/reconciliation", {
      "GET /admin/ledger/check": success({ ...report, ok: true, violations: [] }),
    });
    expect(
      await screen.findByText("The ledger balances: every invariant holds."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("audit log", () => {
  it("filters by action and target", async () => {
    const { user, callsTo } = renderAsStaff("/admin/audit-log", {
      "GET /admin/audit-log": success({
        data: [
          {
            id: 1,
            actor: { id: 1, email: "staff@example.com" },
            actor_label: "staff@example.com",
            action: "deposit.approved",
            target_type: "deposit",
            target_id: "12",
            before: { status: "under_review" },
            after: { status: "confirmed" },
            ip: "127.0.0.1",
            created_at: "2026-01-15T12:00:00.000Z",
          },
        ],
        pagination: { last_page: 1, current_page: 1, total: 1 },
      }),
    });
    expect(await screen.findByText("under_review")).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText("Action"), "deposit.approved");
    await fill(user, screen.getByLabelText("Target"), "deposit:12");
    await user.click(screen.getByRole("button", { name: "Filter" }));
    await waitFor(() => {
      const query = new URL(callsTo("GET /admin/audit-log").at(-1)!.path, "http://x").searchParams;
      expect(query.get("action")).toBe("deposit.approved");
      expect(query.get("target")).toBe("deposit:12");
    });
  });
});
