import { paths } from "../../paths.ts";

export interface NavItem {
  to: string;
  label: string;
}

/** SPEC §2 "Navigation": the hover menus of the secondary nav. */
export const accountMenu: readonly NavItem[] = [
  { to: paths.user.fundWallet, label: "Deposit" },
  { to: paths.user.withdrawFunds, label: "Withdraw" },
];

export const statementsMenu: readonly NavItem[] = [
  { to: paths.user.transactionHistory, label: "Transaction History" },
  { to: paths.user.tradeHistory, label: "Trade History" },
];

export const settingsMenu: readonly NavItem[] = [
  { to: paths.user.personalData, label: "Personal Data" },
  { to: paths.user.security, label: "Security" },
];
