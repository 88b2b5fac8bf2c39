import { paths } from "../../paths.ts";

export const statementTabs = [
  { to: paths.user.transactionHistory, label: "Transaction History" },
  { to: paths.user.tradeHistory, label: "Trade History" },
  { to: paths.user.statements, label: "Statements" },
] as const;
