import { act, render, screen } from "@testing-library/react";
import type { ActivityItem } from "@tp/domain/engagement";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ActivityToast,
  activity_refresh_choices_ms,
  activity_toast_exit_ms,
  activity_toast_visible_ms,
  pickRefreshDelayMs,
} from "../src/engagement/activity-toast.tsx";
import { type FakeRoute, failure, installFakeApi, success } from "./fake-api.ts";

const deposit: ActivityItem = {
  kind: "deposit",
  amount: 250,
  currency: "USD",
  method: "Bitcoin",
  at: "2026-03-04T10:00:00.000Z",
};
const withdrawal: ActivityItem = {
  kind: "withdrawal",
  amount: 1200.5,
  currency: "USD",
  method: "Bank Transfer",
  at: "2026-03-04T09:00:00.000Z",
};

/** Lets the fetch (a chain of promises) finish without moving the clock. */
const settle = () => act(() => vi.advanceTimersByTimeAsync(0));
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function mount(route: FakeRoute) {
  const api = installFakeApi({ "GET /activity/recent": route });
  const view = render(<ActivityToast />);
  return { ...api, ...view, fetches: () => api.callsTo("GET /activity/recent").length };
}

describe('"New Transaction" toast (SPEC §4, §9; PRODUCT.md D5)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it("picks 30, 60, 90 or 120 s for the next fetch", () => {
    expect(activity_refresh_choices_ms).toEqual([30_000, 60_000, 90_000, 120_000]);
    expect(pickRefreshDelayMs(() => 0)).toBe(30_000);
    expect(pickRefreshDelayMs(() => 0.26)).toBe(60_000);
    expect(pickRefreshDelayMs(() => 0.5)).toBe(90_000);
    expect(pickRefreshDelayMs(() => 0.9999)).toBe(120_000);
    const seen = new Set(Array.from({ length: 200 }, () => pickRefreshDelayMs()));
    expect([...seen].sort((a, b) => a - b)).toEqual([30_000, 60_000, 90_000, 120_000]);
  });

  it("fetches once on mount, shows one real item for 8 s, leaves, and fetches again after the picked delay", async () => {
    // 0.5: the second of two items, and the third refresh choice (90 s).
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const view = mount(success({ enabled: true, data: [deposit, withdrawal] }));
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    await settle();
    expect(view.fetches()).toBe(1);

    const toast = screen.getByRole("status");
    expect(toast).toHaveTextContent("New Transaction");
    expect(toast).toHaveTextContent("Amount: $1,200.50");
    expect(toast).toHaveTextContent("Withdrawal via Bank Transfer");
    expect(toast).toHaveAttribute("data-phase", "shown");
    // Nothing but the transaction: no name, no invented figure.
    expect(toast.textContent).toBe("−New TransactionAmount: $1,200.50Withdrawal via Bank Transfer");

    await advance(activity_toast_visible_ms - 1);
    expect(screen.getByRole("status")).toHaveAttribute("data-phase", "shown");
    await advance(1);
    expect(screen.getByRole("status")).toHaveAttribute("data-phase", "leaving");
    await advance(activity_toast_exit_ms);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();

    await advance(90_000 - activity_toast_visible_ms - activity_toast_exit_ms - 1);
    expect(view.fetches()).toBe(1);
    await advance(1);
    await settle();
    expect(view.fetches()).toBe(2);
    expect(screen.getByRole("status")).toHaveTextContent("Amount: $1,200.50");
  });

  it("shows nothing when there are no real transactions, and looks again later", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const view = mount(success({ enabled: true, data: [] }));
    await settle();
    expect(view.fetches()).toBe(1);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    await advance(30_000);
    await settle();
    expect(view.fetches()).toBe(2);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });

  it("stops when the operator turned it off", async () => {
    const view = mount(success({ enabled: false, data: [] }));
    await settle();
    await advance(activity_refresh_choices_ms[3] * 2);
    expect(view.fetches()).toBe(1);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("only logs a failed fetch and tries again after the picked delay", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.3);
    const view = mount(failure(500, "Internal Server Error"));
    await settle();
    expect(console.warn).toHaveBeenCalledWith(
      "Recent activity could not be loaded",
      expect.anything(),
    );
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    await advance(60_000);
    await settle();
    expect(view.fetches()).toBe(2);
  });

  it("clears its timers on unmount", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const view = mount(success({ enabled: true, data: [deposit] }));
    await settle();
    expect(screen.getByRole("status")).toHaveTextContent("Deposit via Bitcoin");
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    view.unmount();
    expect(vi.getTimerCount()).toBe(0);
    await advance(activity_refresh_choices_ms[3]);
    expect(view.fetches()).toBe(1);
  });
});
