import { screen, within } from "@testing-library/react";
import { uiMessages } from "@tp/domain/messages";
import { describe, expect, it } from "vitest";
import { siteContent, storeSession, success, trader } from "./fake-api.ts";
import { findToast, renderApp } from "./render-app.tsx";

describe("signed-in shell", () => {
  it("hides the pages of providers the operator has not set up, on desktop and in the mobile panel", async () => {
    storeSession();
    renderApp("/user/dashboard", {
      "GET /market-info/providers": success({
        blockchain_stats: true,
        crypto_news: false,
        crypto_market: false,
      }),
    });
    const desktop = within(await screen.findByRole("navigation", { name: "Account sections" }));
    expect(await desktop.findByRole("link", { name: "Blockchain stats" })).toBeInTheDocument();
    expect(desktop.queryByRole("link", { name: "Crypto news" })).not.toBeInTheDocument();
    expect(desktop.queryByRole("link", { name: "Crypto market" })).not.toBeInTheDocument();
    const panel = within(screen.getByRole("navigation", { name: "Account menu", hidden: true }));
    expect(panel.getByRole("link", { name: "Blockchain stats", hidden: true })).toBeInTheDocument();
    expect(panel.queryByRole("link", { name: "Crypto news", hidden: true })).toBeNull();
    expect(panel.queryByRole("link", { name: "Crypto market", hidden: true })).toBeNull();
  });

  it("has the desktop bar: level, status, deposit, logout, menus and a bell without badge", async () => {
    storeSession();
    renderApp("/user/dashboard");
    const header = within((await screen.findAllByRole("banner"))[0]!);
    const desktop = within(screen.getByRole("navigation", { name: "Account sections" }));

    expect(await screen.findByText("Online")).toBeInTheDocument();
    expect(screen.getAllByText("basic")[0]).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "Deposit Funds" })[0]).toHaveAttribute(
      "href",
      "/user/fund-wallet",
    );
    expect(header.getByRole("button", { name: "LOGOUT" })).toBeInTheDocument();
    expect(desktop.getByRole("link", { name: "Blockchain stats" })).toBeInTheDocument();
    expect(desktop.getByRole("link", { name: "Crypto news" })).toBeInTheDocument();
    expect(desktop.getByRole("link", { name: "Crypto market" })).toHaveAttribute(
      "href",
      "/user/crypto-market",
    );
    expect(desktop.getByRole("button", { name: "ACCOUNT" })).toBeInTheDocument();
    expect(desktop.getByRole("link", { name: "Withdraw" })).toHaveAttribute(
      "href",
      "/user/withdraw-funds",
    );
    expect(desktop.getByRole("link", { name: "Trade History" })).toHaveAttribute(
      "href",
      "/user/trade-history",
    );
    expect(desktop.getByRole("link", { name: "Security" })).toHaveAttribute(
      "href",
      "/user/security",
    );
    expect(desktop.getByRole("link", { name: "Responsible trading" })).toHaveAttribute(
      "href",
      "/user/responsible-trading",
    );
    expect(desktop.getByRole("link", { name: "MY REFERRALS" })).toHaveAttribute(
      "href",
      "/user/referrals",
    );
    expect(desktop.getByRole("link", { name: "Notifications" })).toHaveAttribute(
      "href",
      "/user/notifications",
    );
  });

  it("opens the mobile panel with account status, level Basic and its links", async () => {
    storeSession();
    const { user } = renderApp("/user/dashboard");
    await user.click(await screen.findByRole("button", { name: "Open menu" }));
    const panel = within(await screen.findByRole("dialog", { name: "Menu" }));

    expect(panel.getByText("Inactive")).toBeInTheDocument();
    expect(panel.getByText("Basic")).toBeInTheDocument();
    expect(panel.getByRole("link", { name: "Profile" })).toHaveAttribute(
      "href",
      "/user/personal-data",
    );
    expect(panel.getByRole("link", { name: "Statements" })).toHaveAttribute(
      "href",
      "/user/transaction-history",
    );
    expect(panel.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/user/security");
    expect(panel.getByRole("button", { name: "Logout" })).toBeInTheDocument();
  });

  it("shows Active once the identity is verified", async () => {
    storeSession();
    const verified = {
      ...trader,
      account: { ...trader.account, kyc_verified_at: "2025-02-01T00:00:00Z" },
    };
    const { user } = renderApp("/user/dashboard", { "GET /user": success({ user: verified }) });
    await user.click(await screen.findByRole("button", { name: "Open menu" }));
    expect(
      within(await screen.findByRole("dialog", { name: "Menu" })).getByText("Active"),
    ).toBeInTheDocument();
  });

  it("tops up the practice balance from the dashboard", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/dashboard", {
      "POST /practice-balance/top-up": success(
        { practice_balance: 10000 },
        uiMessages.topUpSuccess,
      ),
    });
    await user.click(await screen.findByRole("button", { name: "Top-up" }));
    expect(await findToast(uiMessages.topUpSuccess)).toBeInTheDocument();
    expect(callsTo("POST /practice-balance/top-up")).toHaveLength(1);
  });

  it("gives unknown /user paths the 404 page linking to the dashboard", async () => {
    storeSession();
    renderApp("/user/nowhere");
    expect(await screen.findByRole("heading", { name: uiMessages.pageNotFound })).toBeVisible();
    expect(screen.getByRole("link", { name: "Go to dashboard" })).toHaveAttribute(
      "href",
      "/user/dashboard",
    );
  });
});

describe("public pages", () => {
  it("404 links anonymous visitors home", async () => {
    renderApp("/no/such/page");
    expect(await screen.findByRole("heading", { name: uiMessages.pageNotFound })).toBeVisible();
    expect(screen.getByRole("link", { name: "Go to home" })).toHaveAttribute("href", "/");
  });

  it("home shows the operator's copy and the two calls to action", async () => {
    renderApp("/");
    expect(await screen.findByRole("heading", { name: siteContent.home.hero_title })).toBeVisible();
    expect(screen.getByRole("heading", { name: "Seize every opportunity" })).toBeVisible();
    expect(screen.getByRole("heading", { name: "Your security is our priority" })).toBeVisible();
    expect(screen.getByRole("heading", { name: "Team Pro" })).toBeVisible();
    const main = within(screen.getByRole("main"));
    expect(main.getAllByRole("link", { name: "Register" })[0]).toHaveAttribute(
      "href",
      "/account/sign-up",
    );
    expect(main.getAllByRole("link", { name: "Try Free Demo" })[0]).toHaveAttribute(
      "href",
      "/account/sign-in",
    );
  });

  it("every page footer has the year, the legal links and the risk warning", async () => {
    renderApp("/about");
    const footer = within(await screen.findByRole("contentinfo"));
    expect(footer.getByText(siteContent.risk_warning)).toBeInTheDocument();
    expect(footer.getByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeInTheDocument();
    expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "/privacy-policy",
    );
    expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute(
      "href",
      "/terms-of-service",
    );
  });

  it("about shows no founder quote and no statistics unless the operator sets them", async () => {
    renderApp("/about");
    expect(await screen.findByRole("heading", { name: "Our values" })).toBeVisible();
    for (const value of ["Bold", "Good people", "Tech professionals", "Reliable"]) {
      expect(screen.getByRole("heading", { name: value })).toBeVisible();
    }
    expect(screen.queryByRole("heading", { name: "In figures" })).not.toBeInTheDocument();
    expect(screen.queryByRole("blockquote")).not.toBeInTheDocument();
  });

  it("about shows statistics and the quote when they are configured", async () => {
    const content = {
      ...siteContent,
      about: {
        ...siteContent.about,
        founder_quote: { quote: "Trade what you can explain.", author: "A. Founder" },
        statistics: [{ label: "Markets", value: "5" }],
      },
    };
    renderApp("/about", { "GET /site-content": success(content) });
    expect(await screen.findByText(/Trade what you can explain\./)).toBeVisible();
    expect(screen.getByRole("heading", { name: "In figures" })).toBeVisible();
    expect(screen.getByText("Markets")).toBeVisible();
  });

  it("contact shows a neutral line when nothing is configured", async () => {
    renderApp("/contact");
    expect(await screen.findByText("Contact details have not been published yet.")).toBeVisible();
    expect(screen.queryByRole("heading", { name: "Help Center" })).not.toBeInTheDocument();
  });

  it("the document galleries say nothing is published yet", async () => {
    renderApp("/confirmation");
    expect(await screen.findByText("No documents published yet")).toBeVisible();
  });
});
