import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  nextRealityCheckAt,
  responsibleTradingMessages,
  type SessionFigures,
} from "@tp/domain/responsible-trading";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RealityCheckDialog } from "../src/responsible-trading/reality-check.tsx";
import { type ApiCall, failure, storeSession, success } from "./fake-api.ts";
import { findToast, renderApp } from "./render-app.tsx";

const started = "2026-01-15T12:00:00.000Z";
const figures: SessionFigures = {
  reality_check: { enabled: true, interval_minutes: 60 },
  session_started_at: started,
  now: "2026-01-15T13:05:00.000Z",
  next_check_at: "2026-01-15T14:00:00.000Z",
  trades: 3,
  stakes: 170.63,
  result: 35,
};

afterEach(() => window.sessionStorage.clear());

describe("when the next check is due", () => {
  it("is the sign-in plus a whole number of intervals, the first one after the time given", () => {
    const start = Date.parse(started);
    const minute = 60_000;
    expect(nextRealityCheckAt(start, 10, start)).toBe(start + 10 * minute);
    expect(nextRealityCheckAt(start, 10, start + 9 * minute)).toBe(start + 10 * minute);
    // At the check itself, the next is one interval on (the one just shown is answered).
    expect(nextRealityCheckAt(start, 10, start + 10 * minute)).toBe(start + 20 * minute);
    expect(nextRealityCheckAt(start, 45, start + 100 * minute)).toBe(start + 135 * minute);
    // A clock behind the sign-in waits for the first interval.
    expect(nextRealityCheckAt(start, 60, start - minute)).toBe(start + 60 * minute);
  });
});

describe("the reality check dialog", () => {
  it("shows the session's length, trades, stakes and result, with Continue and Log out", async () => {
    const onContinue = vi.fn();
    const onLogOut = vi.fn();
    render(
      <RealityCheckDialog
        figures={figures}
        nowMs={Date.parse(started) + 65 * 60_000 + 30_000}
        onContinue={onContinue}
        onLogOut={onLogOut}
      />,
    );
    const dialog = screen.getByRole("dialog", { name: "Reality check" });
    expect(dialog).toHaveTextContent("You have been signed in for 1 h 5 min.");
    const figure = (label: string) =>
      within(dialog).getByText(label).nextElementSibling?.textContent;
    expect(figure("Trades")).toBe("3");
    expect(figure("Stakes")).toBe("$170.63");
    expect(figure("Result")).toBe("+$35.00");

    const user = userEvent.setup();
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    expect(onContinue).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole("button", { name: "Log out" }));
    expect(onLogOut).toHaveBeenCalledTimes(1);
  });

  it("shows a loss with a minus sign and a short session in minutes", () => {
    render(
      <RealityCheckDialog
        figures={{ ...figures, result: -12.5 }}
        nowMs={Date.parse(started) + 10 * 60_000}
        onContinue={() => {}}
        onLogOut={() => {}}
      />,
    );
    const dialog = screen.getByRole("dialog", { name: "Reality check" });
    expect(dialog).toHaveTextContent("You have been signed in for 10 min.");
    expect(within(dialog).getByText("Result").nextElementSibling).toHaveTextContent("\u2212$12.50");
  });
});

describe("the reality check in the user shell", () => {
  /** A session that began one interval (10 min) ago less `dueInMs`: the check is due then. */
  function sessionDueIn(dueInMs: number, trades: number) {
    const start = new Date(Date.now() - 10 * 60_000 + dueInMs).toISOString();
    return () =>
      success({
        ...figures,
        reality_check: { enabled: true, interval_minutes: 10 },
        session_started_at: start,
        trades,
      });
  }

  it("opens once at the interval after a real trade; Continue closes it until the next", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/personal-data", {
      "GET /responsible-trading/session": sessionDueIn(300, 2),
    });
    const dialog = await screen.findByRole("dialog", { name: "Reality check" }, { timeout: 3000 });
    expect(dialog).toHaveTextContent("You have been signed in for 10 min.");
    expect(screen.getAllByRole("dialog")).toHaveLength(1);
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    // The next check is 10 minutes on: nothing more now.
    const reads = callsTo("GET /responsible-trading/session").length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(callsTo("GET /responsible-trading/session")).toHaveLength(reads);
  });

  it("never opens when the trader turned the check off", async () => {
    storeSession();
    const { callsTo } = renderApp("/user/personal-data", {
      "GET /responsible-trading/session": () =>
        success({
          ...figures,
          reality_check: { enabled: false, interval_minutes: 10 },
          session_started_at: new Date(Date.now() - 10 * 60_000 + 100).toISOString(),
          next_check_at: null,
        }),
    });
    await waitFor(() => expect(callsTo("GET /responsible-trading/session")).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(callsTo("GET /responsible-trading/session")).toHaveLength(1);
  });

  it("stays closed when no real trade was placed in the session", async () => {
    storeSession();
    const { callsTo } = renderApp("/user/personal-data", {
      "GET /responsible-trading/session": sessionDueIn(200, 0),
    });
    // Read at load and again when the check fell due: no trades, no dialog.
    await waitFor(
      () => expect(callsTo("GET /responsible-trading/session").length).toBeGreaterThan(1),
      { timeout: 3000 },
    );
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("the Responsible trading page", () => {
  it("shows the server's refusal under the field it names", async () => {
    storeSession();
    const { user } = renderApp("/user/responsible-trading", {
      "GET /responsible-trading/reality-check": success({
        reality_check: { enabled: true, interval_minutes: 60 },
      }),
      "PUT /responsible-trading/reality-check": failure(
        422,
        responsibleTradingMessages.intervalInvalid,
        { interval_minutes: [responsibleTradingMessages.intervalInvalid] },
      ),
    });
    await user.selectOptions(await screen.findByLabelText("Every"), "20");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Every")).toHaveAccessibleDescription(
        responsibleTradingMessages.intervalInvalid,
      ),
    );
    expect(await findToast(responsibleTradingMessages.intervalInvalid)).toBeInTheDocument();
  });

  it("shows the setting (default on, 60 minutes) and saves the trader's interval", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/responsible-trading", {
      "GET /responsible-trading/reality-check": success({
        reality_check: { enabled: true, interval_minutes: 60 },
      }),
      "PUT /responsible-trading/reality-check": (call: ApiCall) =>
        success({ reality_check: call.body }, responsibleTradingMessages.realityCheckSaved),
    });
    expect(await screen.findByRole("heading", { name: "Reality check" })).toBeInTheDocument();
    const checkbox = await screen.findByLabelText(
      "Show me a reality check while I trade with real money",
    );
    expect(checkbox).toBeChecked();
    const every = screen.getByLabelText("Every");
    expect(every).toHaveValue("60");
    await user.selectOptions(every, "15");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast(responsibleTradingMessages.realityCheckSaved)).toBeInTheDocument();
    expect(callsTo("PUT /responsible-trading/reality-check")[0]?.body).toEqual({
      enabled: true,
      interval_minutes: 15,
    });
  });
});
