import type { Page } from "playwright-core";
// The web app's own route table: the inventory below is checked against it, so a page added
// there and forgotten here fails the accessibility sweep instead of escaping it.
import { paths } from "../../web/src/paths.ts";
import { expectVisible } from "./pages/common.ts";

/**
 * Every page of the app, once, with who opens it and how to tell it has loaded. The
 * accessibility sweep (e2e/test/accessibility.test.ts) visits each one at every size and
 * theme. Adding a page: one line here (its route from web/src/paths.ts, who sees it, and
 * the address when the route has parameters).
 */
export type Visitor = "visitor" | "trader" | "staff";

/** What the sweep knows when it opens a page: the ids of the records it made. */
export interface SweepData {
  traderUserId: number;
}

export interface AppPage {
  /** The route as web/src/paths.ts spells it. */
  route: string;
  as: Visitor;
  /** The address to open when it is not the route itself (parameters, a query). */
  url?: (data: SweepData) => string;
  /** Waits for content that comes after the heading (a live price, a chart). */
  ready?: (page: Page) => Promise<void>;
}

/** Routes that only redirect to another page of the list: nothing of their own to check. */
export const redirect_routes: readonly string[] = [paths.user.root];

export const app_pages: readonly AppPage[] = [
  // Public
  { route: paths.home, as: "visitor" },
  { route: paths.about, as: "visitor" },
  { route: paths.contact, as: "visitor" },
  { route: paths.privacyPolicy, as: "visitor" },
  { route: paths.termsOfService, as: "visitor" },
  { route: paths.legalDocuments, as: "visitor" },
  { route: paths.confirmation, as: "visitor" },
  { route: paths.financialStatement, as: "visitor" },
  { route: paths.marketStatus, as: "visitor" },
  { route: paths.riskDisclosure, as: "visitor" },
  { route: paths.rules, as: "visitor" },
  { route: paths.verify, as: "visitor" },
  { route: "/no-such-page", as: "visitor" },
  // Account
  { route: paths.welcome, as: "visitor" },
  { route: paths.signUp, as: "visitor" },
  { route: paths.signIn, as: "visitor" },
  { route: paths.forgotPassword, as: "visitor" },
  // The e-mailed links, with a token the server does not know: the reset form (checked only
  // when sent), and the verification and confirmation pages' error states.
  {
    route: paths.resetPassword,
    as: "visitor",
    url: () => `${paths.resetPassword}?token=unknown&email=grace%40example.test`,
  },
  {
    route: paths.verifyEmail,
    as: "visitor",
    url: () => `${paths.verifyEmail}?token=unknown&email=grace%40example.test`,
  },
  {
    route: paths.confirmWithdrawal,
    as: "visitor",
    url: () => `${paths.confirmWithdrawal}?token=unknown`,
  },
  // Trader
  {
    route: paths.user.dashboard,
    as: "trader",
    ready: (page) => expectVisible(page.getByRole("button", { name: "Call", exact: true })),
  },
  { route: paths.user.fundWallet, as: "trader" },
  { route: paths.user.withdrawFunds, as: "trader" },
  { route: paths.user.blockchainStats, as: "trader" },
  { route: paths.user.cryptoNews, as: "trader" },
  { route: paths.user.cryptoMarket, as: "trader" },
  { route: paths.user.transactionHistory, as: "trader" },
  { route: paths.user.tradeHistory, as: "trader" },
  { route: paths.user.statements, as: "trader" },
  { route: paths.user.personalData, as: "trader" },
  { route: paths.user.security, as: "trader" },
  { route: paths.user.responsibleTrading, as: "trader" },
  { route: paths.user.referrals, as: "trader" },
  { route: paths.user.notifications, as: "trader" },
  // Back office: its home is the setup checklist
  { route: paths.admin.root, as: "staff" },
  { route: paths.admin.deposits, as: "staff" },
  { route: paths.admin.withdrawals, as: "staff" },
  { route: paths.admin.verifications, as: "staff" },
  { route: paths.admin.users, as: "staff" },
  {
    route: paths.admin.user,
    as: "staff",
    url: (data) => paths.admin.user.replace(":id", String(data.traderUserId)),
  },
  { route: paths.admin.paymentMethods, as: "staff" },
  { route: paths.admin.auditLog, as: "staff" },
  { route: paths.admin.reconciliation, as: "staff" },
  { route: paths.admin.notifications, as: "staff" },
  { route: paths.admin.feeds, as: "staff" },
];

/** Every route string of web/src/paths.ts (the table nests by area). */
export function allRoutes(table: object = paths): string[] {
  return Object.values(table).flatMap((value) =>
    typeof value === "string" ? [value] : allRoutes(value as object),
  );
}

/** Routes of the app that neither the inventory nor the redirect list covers. */
export function routesMissingFromInventory(): string[] {
  const covered = new Set([...app_pages.map((page) => page.route), ...redirect_routes]);
  return allRoutes().filter((route) => !covered.has(route));
}
