import { screen, waitFor, within } from "@testing-library/react";
import type { LedgerReport } from "@tp/domain/admin-api";
import type { UserView } from "@tp/domain/api";
import type { JournalVerification } from "@tp/domain/journal";
import { describe, expect, it } from "vitest";
import { storeSession, success, trader } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

/** The reconciliation page's "Journal integrity" section (issue 15 item 3). */

const staff: UserView = { ...trader, id: 1, email: "staff@example.com", role: "support" };
const emptyList = success({ data: [], pagination: { last_page: 1, current_page: 1, total: 0 } });

const ledger: LedgerReport = {
  ok: true,
  violations: [],
  checked_at: "2026-01-15T12:00:00.000Z",
  currency: "USD",
  balances_by_kind: { "trader:real": 829.5 },
  held_withdrawals: { count: 0, amount: 0 },
  confirmed_deposits: { count: 2, amount: 1250 },
  paid_withdrawals: { count: 0, amount: 0 },
  trading_results: { real: 12.5, practice: -3 },
};

const verified: JournalVerification = {
  ok: true,
  checked_at: "2026-01-15T12:00:00.000Z",
  records: { postings: 1204, trades_placed: 310, trades_settled: 298, audit: 57 },
  chains: 14,
  checkpoints: 9,
  latest_checkpoint: { id: 9, created_at: "2026-01-15T11:00:00.000Z" },
  problem: null,
};

const tampered: JournalVerification = {
  ...verified,
  ok: false,
  problem: {
    kind: "edited",
    chain: "account:12",
    record: "posting",
    id: 345,
    message:
      "Posting 345 of account 12 was changed after it was written: its hash no longer matches.",
  },
};

function renderAsStaff(routes: Parameters<typeof renderApp>[1] = {}) {
  storeSession("staff-token", staff);
  return renderApp("/admin/reconciliation", {
    "GET /user": success({ user: staff }),
    "GET /admin/deposits": emptyList,
    "GET /admin/withdrawals": emptyList,
    "GET /admin/verifications": emptyList,
    "GET /admin/payment-method-changes": success([]),
    "GET /admin/ledger/check": success(ledger),
    ...routes,
  });
}

async function findSection() {
  return screen.findByRole("region", { name: "Journal integrity" });
}

describe("journal integrity", () => {
  it("says all chains verify, with the records recomputed by kind, chains and checkpoints", async () => {
    renderAsStaff({ "GET /admin/journal/verify": success(verified) });
    const section = await findSection();
    const verdict = await within(section).findByText("All chains verify");
    expect(verdict.closest("[role=status]")).toHaveTextContent(/Checked .*2026/);
    expect(within(section).queryByRole("alert")).toBeNull();
    expect(within(section).getByText("1,204")).toBeVisible();
    expect(within(section).getByText("Trades placed")).toBeVisible();
    expect(within(section).getByText("310")).toBeVisible();
    expect(within(section).getByText("298")).toBeVisible();
    expect(within(section).getByText("Audit rows")).toBeVisible();
    expect(within(section).getByText("57")).toBeVisible();
    expect(within(section).getByText("14")).toBeVisible();
    expect(within(section).getByText("#9")).toBeVisible();
    expect(within(section).getByText("/api/v1/journal/checkpoints")).toBeVisible();
    expect(within(section).getByText("npm run journal:verify")).toBeVisible();
  });

  it("says tampering was found, with the problem's message, chain and record", async () => {
    renderAsStaff({ "GET /admin/journal/verify": success(tampered) });
    const section = await findSection();
    const alert = await within(section).findByRole("alert");
    expect(alert).toHaveTextContent("Tampering found");
    expect(alert).toHaveTextContent(tampered.problem!.message);
    expect(within(alert).getByText("account:12")).toBeVisible();
    expect(alert).toHaveTextContent("Posting 345");
    expect(within(section).queryByText("All chains verify")).toBeNull();
  });

  it("runs the check again on Run again, showing the new verdict", async () => {
    let replies = 0;
    const { user, callsTo } = renderAsStaff({
      "GET /admin/journal/verify": () => success(++replies === 1 ? verified : tampered),
    });
    const section = await findSection();
    expect(await within(section).findByText("All chains verify")).toBeVisible();
    expect(callsTo("GET /admin/journal/verify")).toHaveLength(1);

    await user.click(within(section).getByRole("button", { name: "Run again" }));
    await waitFor(() => expect(callsTo("GET /admin/journal/verify")).toHaveLength(2));
    expect(await within(section).findByRole("alert")).toHaveTextContent("Tampering found");
    // The ledger check is not run again with it.
    expect(callsTo("GET /admin/ledger/check")).toHaveLength(1);
  });

  it("says so when the check cannot run, and Try again asks once more", async () => {
    const { user, callsTo } = renderAsStaff({
      "GET /admin/journal/verify": { status: 403, body: { status: "error", message: "Forbidden" } },
    });
    const section = await findSection();
    expect(await within(section).findByRole("alert")).toHaveTextContent(
      "The journal check could not run",
    );
    await user.click(within(section).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(callsTo("GET /admin/journal/verify")).toHaveLength(2));
  });
});
