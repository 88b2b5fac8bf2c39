import { paths } from "../../paths.ts";

export const fundingTabs = [
  { to: paths.user.fundWallet, label: "Deposit" },
  { to: paths.user.withdrawFunds, label: "Withdraw" },
] as const;
