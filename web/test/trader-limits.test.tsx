import { screen, waitFor, within } from "@testing-library/react";
import {
  excludedMessage,
  exclusionNotShortenedMessage,
  traderLimitMessages as m,
  type TraderLimit,
  trader_limit_kinds,
  utcMomentText,
} from "@tp/domain/trader-limits";
import { describe, expect, it } from "vitest";
import { refusal, storeSession, success } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

const resets_at = "2026-11-25T00:00:00.000Z";
const effective_at = "2026-11-25T10:00:00.000Z";

/** Every kind without a limit, except the daily loss limit: $50 in force, a raise to $100 pending. */
function limitsFixture(): TraderLimit[] {
  return trader_limit_kinds.map((kind) => ({
    kind,
    value: kind === "loss_day" ? 50 : null,
    pending: kind === "loss_day" ? { value: 100, effective_at } : null,
    used:
      kind === "loss_day" ? 25 : kind === "open_trades" ? 1 : kind === "session_minutes" ? 12 : 0,
    resets_at: kind === "open_trades" || kind === "session_minutes" ? null : resets_at,
  }));
}

const limitsRoute = success({ limits: limitsFixture() });

function openPage(routes: Parameters<typeof renderApp>[1] = {}) {
  storeSession();
  return renderApp("/user/responsible-trading", {
    "GET /responsible-trading/limits": limitsRoute,
    "GET /responsible-trading/reality-check": success({
      reality_check: { enabled: true, interval_minutes: 60 },
    }),
    ...routes,
  });
}

describe("your limits (issue 14 item 1)", () => {
  it("shows each limit in force, its use, its reset and the pending raise with its time", async () => {
    openPage();
    const daily = await screen.findByLabelText("Daily loss limit (USD)");
    expect(daily).toHaveValue("50");
    expect(daily).toHaveAccessibleDescription(
      `In force: $50.00. Used: $25.00 · resets ${utcMomentText(resets_at)} Raise to $100.00: takes effect Wed, 25 Nov 2026, 10:00 UTC`,
    );
    expect(
      screen.getByText("Raise to $100.00: takes effect Wed, 25 Nov 2026, 10:00 UTC"),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Weekly stake limit (USD)")).toHaveValue("");
    expect(screen.getByLabelText("Weekly stake limit (USD)")).toHaveAccessibleDescription(
      /^No limit in force\. Used: \$0\.00/,
    );
    expect(screen.getByLabelText("Open trades limit")).toHaveAccessibleDescription(
      "No limit in force. Open now: 1",
    );
    expect(screen.getByLabelText("Session time limit (minutes)")).toHaveAccessibleDescription(
      "No limit in force. This session: 12 minutes",
    );
    expect(
      screen.getByText(/Raising or removing a limit takes effect after 24 hours/),
    ).toBeVisible();
  });

  it("saves only the kinds changed (empty removes one) and shows the server's message", async () => {
    const saved = limitsFixture().map((limit) =>
      limit.kind === "stake_week" ? { ...limit, value: 300 } : limit,
    );
    const { user, callsTo } = openPage({
      "PUT /responsible-trading/limits": success({ limits: saved }, m.limitsSavedWithPending),
    });
    await fill(user, await screen.findByLabelText("Weekly stake limit (USD)"), "$300");
    await user.clear(screen.getByLabelText("Daily loss limit (USD)"));
    await user.click(screen.getByRole("button", { name: "Save limits" }));

    expect(await findToast(m.limitsSavedWithPending)).toBeInTheDocument();
    expect(callsTo("PUT /responsible-trading/limits")[0]?.body).toEqual({
      stake_week: 300,
      loss_day: null,
    });
    // The form now shows what the server answered.
    expect(screen.getByLabelText("Weekly stake limit (USD)")).toHaveValue("300");
    expect(screen.getByLabelText("Daily loss limit (USD)")).toHaveValue("50");
  });

  it("refuses what the server would, with its messages, under the field", async () => {
    const { user, callsTo } = openPage({
      "PUT /responsible-trading/limits": {
        status: 422,
        body: {
          status: "error",
          message: "The given data was invalid.",
          errors: { open_trades: [m.openTradesInvalid] },
        },
      },
    });
    const monthly = await screen.findByLabelText("Monthly deposit limit (USD)");
    await fill(user, monthly, "12.345");
    await fill(user, screen.getByLabelText("Session time limit (minutes)"), "5");
    await user.click(screen.getByRole("button", { name: "Save limits" }));
    await waitFor(() =>
      expect(monthly).toHaveAccessibleDescription(expect.stringContaining(m.moneyInvalid)),
    );
    expect(screen.getByLabelText("Session time limit (minutes)")).toHaveAccessibleDescription(
      expect.stringContaining(m.sessionInvalid),
    );
    expect(callsTo("PUT /responsible-trading/limits")).toHaveLength(0);

    await user.clear(monthly);
    await user.clear(screen.getByLabelText("Session time limit (minutes)"));
    await fill(user, screen.getByLabelText("Open trades limit"), "3");
    await user.click(screen.getByRole("button", { name: "Save limits" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Open trades limit")).toHaveAccessibleDescription(
        expect.stringContaining(m.openTradesInvalid),
      ),
    );
    expect(callsTo("PUT /responsible-trading/limits")).toHaveLength(1);
  });
});

describe("take a break (issue 14 item 2)", () => {
  it("says in the dialog what stops and until when, then starts the chosen time-out", async () => {
    const ends_at = "2026-11-25T10:41:00.000Z";
    const exclusion = { kind: "time_out", started_at: "2026-11-24T10:41:00.000Z", ends_at };
    const { user, callsTo } = openPage({
      "GET /responsible-trading/exclusion": success({ exclusion: null }),
      "POST /responsible-trading/exclusion": {
        status: 201,
        body: { status: "success", message: m.exclusionStarted, data: { exclusion } },
      },
    });
    const length = await screen.findByLabelText("Length of the break");
    expect(
      within(length)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual([
      "Time-out: 1 day",
      "Time-out: 1 week",
      "Time-out: 2 weeks",
      "Time-out: 30 days",
      "Time-out: 6 weeks",
      "Self-exclusion: 6 months",
      "Self-exclusion: 1 year",
      "Self-exclusion: 2 years",
      "Self-exclusion: 3 years",
      "Self-exclusion: 5 years",
    ]);
    await user.click(screen.getByRole("button", { name: "Take a break" }));
    const dialog = await screen.findByRole("dialog", { name: "Start a time-out?" });
    expect(dialog).toHaveTextContent(
      /Trading and deposits stop at once and stay stopped until \w{3}, \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC\./,
    );
    expect(dialog).toHaveTextContent("cannot be shortened or undone");
    expect(dialog).toHaveTextContent(
      "Withdrawals stay available throughout, and trades already open settle normally.",
    );
    expect(callsTo("POST /responsible-trading/exclusion")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Start my time-out" }));

    expect(await findToast(m.exclusionStarted)).toBeInTheDocument();
    expect(callsTo("POST /responsible-trading/exclusion")[0]?.body).toEqual({
      kind: "time_out",
      days: 1,
    });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByRole("note", { name: "Break in force" })).toHaveTextContent(
      excludedMessage("time_out", ends_at),
    );
  });

  it("with a break in force shows it and its end, and offers only longer ones", async () => {
    const ends_at = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const exclusion = { kind: "time_out", started_at: new Date().toISOString(), ends_at };
    const { user } = openPage({
      "GET /responsible-trading/exclusion": success({ exclusion }),
      "POST /responsible-trading/exclusion": refusal(
        409,
        "EXCLUSION_NOT_SHORTENED",
        exclusionNotShortenedMessage(ends_at),
      ),
    });
    expect(await screen.findByRole("note", { name: "Break in force" })).toHaveTextContent(
      excludedMessage("time_out", ends_at),
    );
    const length = screen.getByLabelText("Extend it with a longer break");
    const offered = within(length)
      .getAllByRole("option")
      .map((option) => option.textContent);
    expect(offered.slice(0, 3)).toEqual([
      "Time-out: 2 weeks",
      "Time-out: 30 days",
      "Time-out: 6 weeks",
    ]);
    expect(offered).not.toContain("Time-out: 1 week");
    // The server is the authority: its refusal is shown as it is.
    await user.click(screen.getByRole("button", { name: "Take a break" }));
    const dialog = await screen.findByRole("dialog", { name: "Start a time-out?" });
    await user.click(within(dialog).getByRole("button", { name: "Start my time-out" }));
    expect(await findToast(exclusionNotShortenedMessage(ends_at))).toBeInTheDocument();
  });
});
