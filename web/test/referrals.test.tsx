import { screen, within } from "@testing-library/react";
import { engagementMessages as m } from "@tp/domain/engagement";
import { describe, expect, it } from "vitest";
import { failure, storeSession, success } from "./fake-api.ts";
import { findToast, renderApp } from "./render-app.tsx";

const link = "http://localhost:3000/account/sign-up?ref=ADA7XK2Q";

const details = success({ referral_id: "ADA7XK2Q", referral_url: link });

function renderReferrals(routes: Parameters<typeof renderApp>[1]) {
  storeSession();
  return renderApp("/user/referrals", routes);
}

describe("referrals page (SPEC §2 'Referrals', §8)", () => {
  it("shows the link and code, copies the link with 'Copied to clipboard!', and lists names with their dates", async () => {
    const view = renderReferrals({
      "GET /referral-details": details,
      "GET /referrals": success({
        data: [
          { id: 12, name: "Grace H.", date_registered: "2026-03-04T10:00:00.000Z" },
          { id: 9, name: "Alan T.", date_registered: "2026-02-01T09:30:00.000Z" },
        ],
        total: 2,
      }),
    });

    const field = await screen.findByLabelText("Referral link");
    expect(field).toHaveValue(link);
    expect(field).toHaveAttribute("readonly");
    expect(screen.getByText("ADA7XK2Q")).toBeInTheDocument();

    await view.user.click(screen.getByRole("button", { name: "Copy link" }));
    expect(await navigator.clipboard.readText()).toBe(link);
    expect(await findToast(m.copiedToClipboard)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copied" })).toBeInTheDocument();

    const list = await screen.findByRole("list", { name: "Referrals" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("Grace H.");
    expect(rows[0]).toHaveTextContent("Mar 4, 2026");
    expect(rows[1]).toHaveTextContent("Alan T.");
    expect(rows[1]).toHaveTextContent("Feb 1, 2026");
    expect(screen.getByText("2 traders")).toBeInTheDocument();
    expect(screen.queryByText(m.noReferrals)).not.toBeInTheDocument();
  });

  it('says "No referrals yet" when nobody signed up with the link', async () => {
    renderReferrals({
      "GET /referral-details": details,
      "GET /referrals": success({ data: [], total: 0 }),
    });
    expect(await screen.findByText(m.noReferrals)).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Referrals" })).not.toBeInTheDocument();
    expect(await screen.findByLabelText("Referral link")).toHaveValue(link);
  });

  it("tells each failed load in its SPEC §8 toast", async () => {
    renderReferrals({
      "GET /referral-details": failure(400, "Bad request"),
      "GET /referrals": failure(400, "Bad request"),
    });
    expect(await findToast(m.referralDetailsFailed)).toBeInTheDocument();
    expect(await findToast(m.referralsFailed)).toBeInTheDocument();
    expect(screen.queryByLabelText("Referral link")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Copy link" })).not.toBeInTheDocument();
  });
});
