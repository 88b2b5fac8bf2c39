import { screen, waitFor, within } from "@testing-library/react";
import { fundingMessages as m } from "@tp/domain/funding";
import { describe, expect, it } from "vitest";
import { failure, storeSession, success } from "./fake-api.ts";
import { transactionFixture } from "./funding-fixtures.ts";
import { renderApp } from "./render-app.tsx";

function page(rows: ReturnType<typeof transactionFixture>[], current = 1, total = rows.length) {
  return success({
    data: rows,
    pagination: { last_page: Math.max(1, Math.ceil(total / 10)), current_page: current, total },
  });
}

const rows = [
  transactionFixture({ id: 1, status: "confirmed", transactionId: "DEP-CONF" }),
  transactionFixture({ id: 2, status: "under_review", transactionId: "DEP-REVIEW" }),
  transactionFixture({ id: 3, status: "awaiting_payment", transactionId: "DEP-AWAIT" }),
  transactionFixture({
    id: 4,
    type: "withdrawal",
    status: "pending",
    method: "Bank Transfer",
    amount: 75.5,
    transactionId: "WDR-PEND",
  }),
  transactionFixture({
    id: 5,
    type: "withdrawal",
    status: "paid",
    transactionId: "WDR-PAID",
    note: "PAYOUT-778",
  }),
  transactionFixture({
    id: 6,
    status: "rejected",
    transactionId: "DEP-REJ",
    note: "The receipt does not match the amount",
  }),
  transactionFixture({ id: 7, type: "withdrawal", status: "cancelled", transactionId: "WDR-CANC" }),
];

function notificationOf(kind: "broadcast" | "deposit_confirmed") {
  return {
    id: kind === "broadcast" ? 1 : 2,
    kind,
    title: kind,
    message: "",
    created_at: "2026-03-04T10:00:00.000Z",
    is_read: false,
  };
}

function rowOf(transactionId: string) {
  const row = document.querySelector(`[data-transaction="${transactionId}"]`);
  if (!row) throw new Error(`no row ${transactionId}`);
  return row as HTMLElement;
}

describe("transaction history", () => {
  it("reads the history again when staff decide on a movement (a notification on the stream)", async () => {
    storeSession();
    let reads = 0;
    const view = renderApp("/user/transaction-history", {
      "GET /transaction-history": () => {
        reads += 1;
        return page(
          reads === 1 ? [rows[1]!] : [transactionFixture({ ...rows[1]!, status: "confirmed" })],
        );
      },
    });
    await screen.findByRole("table", { name: "Transactions" });
    await waitFor(() => expect(view.stream.current().sent[0]).toMatchObject({ type: "auth" }));
    // A broadcast is not about money: nothing to read again.
    view.stream.current().push({
      type: "notification",
      notification: notificationOf("broadcast"),
      unread_count: 1,
    });
    view.stream.current().push({
      type: "notification",
      notification: notificationOf("deposit_confirmed"),
      unread_count: 2,
    });
    await waitFor(() =>
      expect(within(rowOf("DEP-REVIEW")).getByText(/confirmed/i)).toBeInTheDocument(),
    );
    expect(reads).toBe(2);
  });

  it("lists deposits and withdrawals with the spec's columns", async () => {
    storeSession();
    renderApp("/user/transaction-history", { "GET /transaction-history": page(rows) });
    const table = await screen.findByRole("table", { name: "Transactions" });
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((cell) => cell.textContent);
    expect(headers).toEqual(["Timestamp", "Type", "Method", "Amount", "Status", "Transaction ID"]);
    const pending = within(rowOf("WDR-PEND"));
    expect(pending.getByText("Withdrawal")).toBeInTheDocument();
    expect(pending.getByText("Bank Transfer")).toBeInTheDocument();
    expect(pending.getByText("-$75.50")).toBeInTheDocument();
    expect(within(rowOf("DEP-CONF")).getByText("+$250.00")).toBeInTheDocument();
    expect(
      within(rowOf("DEP-REJ")).getByText("The receipt does not match the amount"),
    ).toBeVisible();
    expect(within(rowOf("WDR-PAID")).getByText("PAYOUT-778")).toBeInTheDocument();
  });

  it("colours the status: confirmed green, pending yellow, anything else red", async () => {
    storeSession();
    renderApp("/user/transaction-history", { "GET /transaction-history": page(rows) });
    await screen.findByRole("table", { name: "Transactions" });
    const toneOf = (id: string) => {
      const badge = rowOf(id).querySelector("[data-tone]") as HTMLElement;
      return { tone: badge.dataset.tone, className: badge.className };
    };
    const expected: Record<string, ["confirmed" | "pending" | "failed", string]> = {
      "DEP-CONF": ["confirmed", "emerald"],
      "WDR-PAID": ["confirmed", "emerald"],
      "DEP-REVIEW": ["pending", "yellow"],
      "DEP-AWAIT": ["pending", "yellow"],
      "WDR-PEND": ["pending", "yellow"],
      "DEP-REJ": ["failed", "red"],
      "WDR-CANC": ["failed", "red"],
    };
    for (const [id, [tone, colour]] of Object.entries(expected)) {
      const { tone: actual, className } = toneOf(id);
      expect(actual, id).toBe(tone);
      expect(className, id).toContain(`bg-${colour}-100`);
    }
  });

  it('says "Error loading transactions" when the list cannot be loaded', async () => {
    storeSession();
    renderApp("/user/transaction-history", {
      "GET /transaction-history": failure(403, "Forbidden"),
    });
    expect(await screen.findByRole("alert")).toHaveTextContent(m.transactionsFailed);
  });

  it("pages through the history, 10 a page, the page kept in the address", async () => {
    storeSession();
    const view = renderApp("/user/transaction-history", {
      "GET /transaction-history": (call) => {
        const current = Number(new URLSearchParams(call.path.split("?")[1]).get("page"));
        return page(
          [transactionFixture({ id: current, transactionId: `DEP-PAGE${current}` })],
          current,
          23,
        );
      },
    });
    await screen.findByText("DEP-PAGE1");
    expect(view.callsTo("GET /transaction-history")[0]?.path).toBe(
      "/transaction-history?page=1&limit=10",
    );
    const pages = within(screen.getByRole("navigation", { name: "Transaction pages" }));
    expect(pages.getByRole("button", { name: "Page 3" })).toBeInTheDocument();
    await view.user.click(pages.getByRole("button", { name: "Page 2" }));
    expect(await screen.findByText("DEP-PAGE2")).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.search).toBe("?page=2"));
  });

  it("has an empty state and cross-links trade history", async () => {
    storeSession();
    renderApp("/user/transaction-history", { "GET /transaction-history": page([]) });
    expect(await screen.findByText("No transactions yet.")).toBeInTheDocument();
    expect(
      within(screen.getByRole("navigation", { name: "Statements" })).getByRole("link", {
        name: "Trade History",
      }),
    ).toHaveAttribute("href", "/user/trade-history");
  });
});
