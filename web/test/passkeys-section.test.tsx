import { screen, waitFor, within } from "@testing-library/react";
import { serverMessages } from "@tp/domain/messages";
import type { PasskeyView } from "@tp/domain/passkey-api";
import { describe, expect, it } from "vitest";
import { refusal, storeSession, success } from "./fake-api.ts";
import { findToast, renderApp } from "./render-app.tsx";

const laptop: PasskeyView = {
  id: 3,
  name: "Laptop",
  created_at: "2026-01-10T09:00:00.000Z",
  last_used_at: null,
};
const phone: PasskeyView = {
  id: 4,
  name: "Phone",
  created_at: "2026-01-11T09:00:00.000Z",
  last_used_at: "2026-01-14T18:30:00.000Z",
};

/** The Passkeys section of /user/security (jsdom has no WebAuthn: ceremonies are e2e's). */
describe("passkeys on the Security page", () => {
  it("lists the passkeys with when they were added and last used", async () => {
    storeSession();
    renderApp("/user/security", {
      "GET /passkeys": success({ passkeys: [laptop, phone] }),
    });
    const list = await screen.findByRole("list", { name: "Your passkeys" });
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Laptop");
    expect(items[0]).toHaveTextContent("Never used");
    expect(items[1]).toHaveTextContent("Phone");
    expect(items[1]).toHaveTextContent("Last used");
    // This browser cannot create passkeys: it says so instead of offering a button.
    const section = screen.getByRole("region", { name: "Passkeys" });
    expect(within(section).getByText("This browser cannot create passkeys.")).toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: "Add a passkey" })).toBeNull();
  });

  it("says there are none yet", async () => {
    storeSession();
    renderApp("/user/security", { "GET /passkeys": success({ passkeys: [] }) });
    expect(await screen.findByText("No passkeys yet.")).toBeInTheDocument();
  });

  it("removes a passkey and reloads the list", async () => {
    storeSession();
    let passkeys = [laptop, phone];
    const { user, callsTo } = renderApp("/user/security", {
      "GET /passkeys": () => success({ passkeys }),
      "DELETE /passkeys/3": () => {
        passkeys = [phone];
        return success(undefined, serverMessages.passkeyRemoved);
      },
    });
    await user.click(await screen.findByRole("button", { name: "Remove passkey Laptop" }));
    expect(await findToast(serverMessages.passkeyRemoved)).toBeInTheDocument();
    expect(callsTo("DELETE /passkeys/3")).toHaveLength(1);
    await waitFor(() =>
      expect(screen.queryByRole("button", { name: "Remove passkey Laptop" })).toBeNull(),
    );
    expect(screen.getByRole("button", { name: "Remove passkey Phone" })).toBeInTheDocument();
  });

  it("shows the server's message when the removal is refused", async () => {
    storeSession();
    const { user } = renderApp("/user/security", {
      "GET /passkeys": success({ passkeys: [laptop] }),
      "DELETE /passkeys/3": refusal(404, "NOT_FOUND", serverMessages.notFound),
    });
    await user.click(await screen.findByRole("button", { name: "Remove passkey Laptop" }));
    expect(await findToast(serverMessages.notFound)).toBeInTheDocument();
  });
});
