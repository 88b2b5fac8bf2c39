import { fireEvent, screen, within } from "@testing-library/react";
import { statementMessages } from "@tp/domain/statements";
import { describe, expect, it } from "vitest";
import { failure, storeSession } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

/** The Statements tab (issue 14 item 6): its period picker and what a refusal shows. */
describe("statements page", () => {
  it("is a tab of the statements pages, and refuses a bad period before asking the server", async () => {
    storeSession();
    const view = renderApp("/user/statements");
    await screen.findByRole("heading", { name: "Statements", level: 1 });
    expect(
      within(screen.getByRole("navigation", { name: "Statements" })).getByRole("link", {
        name: "Statements",
      }),
    ).toHaveAttribute("href", "/user/statements");
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-01-10" } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2026-01-01" } });
    await view.user.click(screen.getByRole("button", { name: "Download CSV" }));
    expect(await screen.findByText(statementMessages.toBeforeFrom)).toBeInTheDocument();
    expect(view.callsTo("GET /statements")).toEqual([]);
  });

  it("shows the server's message under the field it refused", async () => {
    storeSession();
    const view = renderApp("/user/statements", {
      "GET /statements": failure(422, statementMessages.periodTooLong, {
        to: [statementMessages.periodTooLong],
      }),
    });
    await screen.findByRole("heading", { name: "Statements", level: 1 });
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2025-01-01" } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2025-01-31" } });
    await view.user.click(screen.getByRole("button", { name: "Download PDF" }));
    expect(await screen.findAllByText(statementMessages.periodTooLong)).not.toHaveLength(0);
    const [call] = view.callsTo("GET /statements");
    expect(call?.path).toBe("/statements?from=2025-01-01&to=2025-01-31&format=pdf&account=real");
    expect(call?.authorization).toBe("Bearer token-123");
  });
});
