import { screen, waitFor, within } from "@testing-library/react";
import {
  type AdminDepositView,
  type AdminVerificationView,
  type AdminWithdrawalView,
  adminMessages,
} from "@tp/domain/admin-api";
import type { UserView } from "@tp/domain/api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ApiCall, failure, storeSession, success, trader } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

const staff: UserView = { ...trader, id: 1, email: "staff@example.com", role: "admin" };
const ada = { id: 7, name: "Ada Lovelace", email: "ada@example.com" };
const grace = { id: 9, name: "Grace Hopper", email: "grace@example.com" };
const singleApproval = {
  needs_second_approval: false,
  first_approved_by: null,
  first_approved_at: null,
};

function deposit(overrides: Partial<AdminDepositView> = {}): AdminDepositView {
  return {
    id: 12,
    amount: 250,
    payment_method_id: "bitcoin",
    method: "Bitcoin",
    status: "under_review",
    fee: 0,
    net_amount: 250,
    transaction_hash: "DEP-ABC123",
    created_at: "2026-01-15T12:00:00.000Z",
    payment_expires_at: "2026-01-16T12:00:00.000Z",
    has_receipt: true,
    receipt_uploaded_at: "2026-01-15T12:05:00.000Z",
    reviewed_at: null,
    rejection_reason: null,
    trader: ada,
    reviewed_by: null,
    receipt_content_type: "image/png",
    receipt_size_bytes: 851,
    four_eyes: singleApproval,
    ...overrides,
  };
}

function withdrawal(overrides: Partial<AdminWithdrawalView> = {}): AdminWithdrawalView {
  return {
    id: 31,
    amount: 120.5,
    payment_method_id: "bitcoin",
    method: "Bitcoin",
    status: "pending",
    fee: 0,
    net_amount: 120.5,
    transaction_hash: "WDR-XYZ",
    withdrawal_details: {
      amount: 120.5,
      wallet_address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    },
    created_at: "2026-01-15T12:00:00.000Z",
    reviewed_at: null,
    rejection_reason: null,
    payout_reference: null,
    email_confirmed_at: "2026-01-15T12:00:00.000Z",
    timeline: [],
    trader: ada,
    reviewed_by: null,
    four_eyes: singleApproval,
    ...overrides,
  };
}

function verification(overrides: Partial<AdminVerificationView> = {}): AdminVerificationView {
  return {
    id: 5,
    id_type: "passport",
    status: "pending",
    content_type: "image/png",
    size_bytes: 863,
    created_at: "2026-01-15T12:00:00.000Z",
    reviewed_at: null,
    rejection_reason: null,
    trader: ada,
    reviewed_by: null,
    email_verified_at: "2026-01-10T00:00:00.000Z",
    kyc_verified_at: null,
    ...overrides,
  };
}

function list<Item>(items: Item[]) {
  return success({
    data: items,
    pagination: { last_page: 1, current_page: 1, total: items.length },
  });
}

const fileCalls: Array<{ url: string; authorization: string | null }> = [];

beforeEach(() => {
  fileCalls.length = 0;
  // Uploaded files come through the browser's fetch as blobs (not the JSON client), and
  // jsdom has no object URLs: both are stood in for here.
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    fileCalls.push({ url: input, authorization: new Headers(init.headers).get("Authorization") });
    return new Response("png-bytes", { status: 200, headers: { "Content-Type": "image/png" } });
  });
  URL.createObjectURL = vi.fn(() => "blob:receipt-preview");
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAsStaff(path: string, routes: Parameters<typeof renderApp>[1] = {}) {
  storeSession("staff-token", staff);
  return renderApp(path, { "GET /user": success({ user: staff }), ...routes });
}

const queuePath = (call: ApiCall) => new URL(call.path, "http://x").searchParams;

describe("admin area access", () => {
  it("shows a trader the normal 404 page and asks the server for nothing admin", async () => {
    storeSession();
    const { calls } = renderApp("/admin/deposits");
    expect(await screen.findByRole("heading", { name: "Page Not Found" })).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Back office sections" })).toBeNull();
    expect(calls.some((call) => call.path.startsWith("/admin"))).toBe(false);
  });

  it("hides the back office when the server refuses the session with 403", async () => {
    renderAsStaff("/admin/deposits", { "GET /admin/deposits": failure(403, "Forbidden") });
    expect(await screen.findByRole("heading", { name: "Page Not Found" })).toBeInTheDocument();
  });

  it("shows staff the sections and the waiting count of each queue", async () => {
    renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([deposit(), deposit({ id: 13 })]),
      "GET /admin/withdrawals": list([withdrawal()]),
      "GET /admin/verifications": list([]),
    });
    const nav = await screen.findByRole("navigation", { name: "Back office sections" });
    expect(await within(nav).findByLabelText("2 waiting")).toBeInTheDocument();
    expect(within(nav).getByLabelText("1 waiting")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { level: 1, name: "Deposits" })).toBeInTheDocument();
  });
});

describe("deposits queue", () => {
  it("lists deposits under review with the trader's id, name and e-mail, filterable by status", async () => {
    const { user, callsTo } = renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([deposit(), deposit({ id: 14, amount: 75, trader: grace })]),
    });
    const row = await screen.findByRole("button", { name: /Grace Hopper/ });
    expect(row).toHaveTextContent("#9");
    expect(row).toHaveTextContent("grace@example.com");
    expect(row).toHaveTextContent("$75.00");
    const listCalls = () =>
      callsTo("GET /admin/deposits").filter((c) => queuePath(c).get("limit") !== "1");
    expect(queuePath(listCalls()[0]!).get("status")).toBe("under_review");

    await user.click(screen.getByRole("button", { name: "Confirmed" }));
    await waitFor(() => expect(queuePath(listCalls().at(-1)!).get("status")).toBe("confirmed"));
    await user.click(screen.getByRole("button", { name: "All" }));
    await waitFor(() => expect(queuePath(listCalls().at(-1)!).has("status")).toBe(false));
  });

  it("shows the receipt inline, fetched with the bearer token as a blob", async () => {
    const { user } = renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([deposit()]),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    const image = await screen.findByRole("img", { name: "Receipt of deposit #12" });
    expect(image).toHaveAttribute("src", "blob:receipt-preview");
    expect(fileCalls).toEqual([
      { url: "/api/v1/admin/deposits/12/receipt", authorization: "Bearer staff-token" },
    ]);
  });

  it("approves after a confirmation naming the amount, shows the server's message and refreshes", async () => {
    const { user, callsTo } = renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([deposit()]),
      "POST /admin/deposits/12/approve": success({}, "Credited $250.00 to Ada Lovelace"),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Approve" }));
    const dialog = await screen.findByRole("dialog", { name: "Approve deposit #12?" });
    expect(dialog).toHaveTextContent("This credits $250.00 to the real balance of Ada Lovelace");
    expect(callsTo("POST /admin/deposits/12/approve")).toHaveLength(0);

    const listsBefore = callsTo("GET /admin/deposits").length;
    await user.click(within(dialog).getByRole("button", { name: "Approve and credit $250.00" }));
    expect(await findToast("Credited $250.00 to Ada Lovelace")).toBeInTheDocument();
    const [approve] = callsTo("POST /admin/deposits/12/approve");
    expect(approve?.body).toBeUndefined();
    expect(approve?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(callsTo("GET /admin/deposits").length).toBeGreaterThan(listsBefore));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("cancelling the confirmation sends nothing", async () => {
    const { user, callsTo } = renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([deposit()]),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Approve" }));
    await user.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(callsTo("POST /admin/deposits/12/approve")).toHaveLength(0);
  });

  it("rejects only with a reason, sending it as { reason }", async () => {
    const { user, callsTo } = renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([deposit()]),
      "POST /admin/deposits/12/reject": success({}, "Deposit rejected"),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Reject" }));
    await user.click(await screen.findByRole("button", { name: "Reject deposit" }));
    expect(await screen.findByLabelText("Reason")).toHaveAccessibleDescription(
      "A reason is required",
    );
    expect(callsTo("POST /admin/deposits/12/reject")).toHaveLength(0);

    await fill(user, screen.getByLabelText("Reason"), "  The receipt is for another amount ");
    await user.click(screen.getByRole("button", { name: "Reject deposit" }));
    expect(await findToast("Deposit rejected")).toBeInTheDocument();
    expect(callsTo("POST /admin/deposits/12/reject")[0]?.body).toEqual({
      reason: "The receipt is for another amount",
    });
  });

  it("shows the server's refusal when someone else decided first", async () => {
    const { user } = renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([deposit()]),
      "POST /admin/deposits/12/approve": failure(409, "This deposit is not under review"),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Approve" }));
    await user.click(await screen.findByRole("button", { name: "Approve and credit $250.00" }));
    expect(await findToast("This deposit is not under review")).toBeInTheDocument();
  });

  it("offers no decision on a deposit that is no longer under review", async () => {
    const { user } = renderAsStaff("/admin/deposits?status=confirmed", {
      "GET /admin/deposits": list([
        deposit({
          status: "confirmed",
          reviewed_at: "2026-01-15T13:00:00.000Z",
          reviewed_by: { id: 1, email: "staff@example.com" },
        }),
      ]),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    expect(await screen.findByText(/by staff@example\.com/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Reject" })).toBeNull();
  });
});

describe("withdrawals queue", () => {
  it("marks paid with the payout reference after showing where the money goes", async () => {
    const { user, callsTo } = renderAsStaff("/admin/withdrawals", {
      "GET /admin/withdrawals": list([withdrawal()]),
      "POST /admin/withdrawals/31/approve": success({}, "Withdrawal marked as paid"),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Mark as paid" }));
    const dialog = await screen.findByRole("dialog", { name: "Mark withdrawal #31 as paid" });
    expect(dialog).toHaveTextContent("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    await user.click(within(dialog).getByRole("button", { name: "Confirm $120.50 paid" }));
    expect(await within(dialog).findByLabelText("Payout reference")).toHaveAccessibleDescription(
      "A payout reference is required",
    );
    expect(callsTo("POST /admin/withdrawals/31/approve")).toHaveLength(0);

    await fill(user, within(dialog).getByLabelText("Payout reference"), "txid 9f8e7d");
    await user.click(within(dialog).getByRole("button", { name: "Confirm $120.50 paid" }));
    expect(await findToast("Withdrawal marked as paid")).toBeInTheDocument();
    const [approve] = callsTo("POST /admin/withdrawals/31/approve");
    expect(approve?.body).toEqual({ payout_reference: "txid 9f8e7d" });
    expect(approve?.idempotencyKey).toBeTruthy();
  });

  it("rejects with a reason and shows the server's message", async () => {
    const { user, callsTo } = renderAsStaff("/admin/withdrawals", {
      "GET /admin/withdrawals": list([withdrawal()]),
      "POST /admin/withdrawals/31/reject": success(
        {},
        "Withdrawal rejected: the hold has been released",
      ),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Reject" }));
    await fill(user, await screen.findByLabelText("Reason"), "Wallet belongs to someone else");
    await user.click(screen.getByRole("button", { name: "Reject and release the hold" }));
    expect(await findToast("Withdrawal rejected: the hold has been released")).toBeInTheDocument();
    expect(callsTo("POST /admin/withdrawals/31/reject")[0]?.body).toEqual({
      reason: "Wallet belongs to someone else",
    });
  });

  it("keeps the dialog and the typed text when the server finds the field invalid", async () => {
    const { user } = renderAsStaff("/admin/withdrawals", {
      "GET /admin/withdrawals": list([withdrawal()]),
      "POST /admin/withdrawals/31/reject": failure(422, "The given data was invalid", {
        reason: ["The reason is too long"],
      }),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Reject" }));
    await fill(user, await screen.findByLabelText("Reason"), "Too long, says the server");
    await user.click(screen.getByRole("button", { name: "Reject and release the hold" }));
    expect(await screen.findByLabelText("Reason")).toHaveAccessibleDescription(
      "The reason is too long",
    );
    expect(screen.getByLabelText("Reason")).toHaveValue("Too long, says the server");
  });

  it("closes the reason dialog when the server says someone else decided first", async () => {
    const { user } = renderAsStaff("/admin/withdrawals", {
      "GET /admin/withdrawals": list([withdrawal()]),
      "POST /admin/withdrawals/31/reject": {
        status: 409,
        body: {
          status: "error",
          code: "WITHDRAWAL_NOT_PENDING",
          message: "This withdrawal is no longer pending",
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Reject" }));
    await fill(user, await screen.findByLabelText("Reason"), "Wallet belongs to someone else");
    await user.click(screen.getByRole("button", { name: "Reject and release the hold" }));
    expect(await findToast("This withdrawal is no longer pending")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByLabelText("Reason")).toBeNull());
  });
});

describe("identity queue", () => {
  it("shows the document and approves it", async () => {
    const { user, callsTo } = renderAsStaff("/admin/identity", {
      "GET /admin/verifications": list([verification()]),
      "POST /admin/verifications/5/approve": success({}, "Identity documents approved"),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    expect(
      await screen.findByRole("img", { name: "Identity document #5 of Ada Lovelace" }),
    ).toHaveAttribute("src", "blob:receipt-preview");
    expect(fileCalls[0]?.url).toBe("/api/v1/admin/verifications/5/file");

    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(await findToast("Identity documents approved")).toBeInTheDocument();
    expect(callsTo("POST /admin/verifications/5/approve")).toHaveLength(1);
  });

  it("rejects with a reason", async () => {
    const { user, callsTo } = renderAsStaff("/admin/identity", {
      "GET /admin/verifications": list([verification()]),
      "POST /admin/verifications/5/reject": success({}, "Identity documents rejected"),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole("button", { name: "Reject" }));
    await fill(user, await screen.findByLabelText("Reason"), "The photo is blurred");
    await user.click(screen.getByRole("button", { name: "Reject document" }));
    expect(await findToast("Identity documents rejected")).toBeInTheDocument();
    expect(callsTo("POST /admin/verifications/5/reject")[0]?.body).toEqual({
      reason: "The photo is blurred",
    });
  });
});

describe("four eyes in the queues", () => {
  const otherReviewer = { id: 2, email: "reviewer-a@example.com" };
  const firstApproved = {
    needs_second_approval: true,
    first_approved_by: otherReviewer,
    first_approved_at: "2026-01-15T12:10:00.000Z",
  };

  it("gives a large deposit its first approval, saying nothing is credited yet", async () => {
    const { user, callsTo } = renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([
        deposit({
          amount: 5000,
          four_eyes: { ...singleApproval, needs_second_approval: true },
        }),
      ]),
      "POST /admin/deposits/12/approve": success({}, adminMessages.depositFirstApproval),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    expect(screen.getByText("Needs approvals from two different reviewers")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Approve (1 of 2)" }));
    const dialog = await screen.findByRole("dialog", { name: "Approve deposit #12?" });
    expect(dialog).toHaveTextContent("nothing is credited");
    await user.click(within(dialog).getByRole("button", { name: "Give first approval" }));
    expect(await findToast(adminMessages.depositFirstApproval)).toBeInTheDocument();
    expect(callsTo("POST /admin/deposits/12/approve")).toHaveLength(1);
  });

  it("shows who approved first and lets a different reviewer give the second", async () => {
    const { user } = renderAsStaff("/admin/deposits", {
      "GET /admin/deposits": list([deposit({ amount: 5000, four_eyes: firstApproved })]),
    });
    const row = await screen.findByRole("button", { name: /Ada Lovelace/ });
    expect(row).toHaveTextContent("Awaiting second approval");
    await user.click(row);
    expect(
      screen.getByText(/First approval by reviewer-a@example\.com .* awaiting second approval/),
    ).toBeVisible();
    expect(screen.getByRole("button", { name: "Give second approval" })).toBeEnabled();
  });

  it("does not let the first approver give the second", async () => {
    storeSession("staff-token", { ...staff, id: otherReviewer.id });
    const { user } = renderApp("/admin/withdrawals", {
      "GET /user": success({ user: { ...staff, id: otherReviewer.id } }),
      "GET /admin/withdrawals": list([withdrawal({ amount: 2000, four_eyes: firstApproved })]),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    expect(screen.getByRole("button", { name: "Awaiting another reviewer" })).toBeDisabled();
  });

  it("shows support the queue without decisions", async () => {
    const support: UserView = { ...staff, id: 3, role: "support" };
    storeSession("staff-token", support);
    const { user } = renderApp("/admin/deposits", {
      "GET /user": success({ user: support }),
      "GET /admin/deposits": list([deposit()]),
    });
    await user.click(await screen.findByRole("button", { name: /Ada Lovelace/ }));
    expect(await screen.findByRole("img", { name: "Receipt of deposit #12" })).toBeVisible();
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Reject" })).toBeNull();
  });
});
