import type { MarketInfoProviders } from "@tp/domain/market-info";
import type { ComponentType } from "react";
import { BlocksIcon, CoinsIcon, NewsIcon } from "../../components/icons.tsx";
import { useMarketInfoProviders } from "../../market-info/providers-api.ts";
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
  { to: paths.user.statements, label: "Download statements" },
];

export const settingsMenu: readonly NavItem[] = [
  { to: paths.user.personalData, label: "Personal Data" },
  { to: paths.user.security, label: "Security" },
  { to: paths.user.responsibleTrading, label: "Responsible trading" },
];

export interface IconNavItem extends NavItem {
  icon: ComponentType<{ className?: string }>;
}

/** The market-information pages, each behind the provider that feeds it. */
const marketInfoItems: ReadonlyArray<IconNavItem & { provider: keyof MarketInfoProviders }> = [
  {
    to: paths.user.blockchainStats,
    label: "Blockchain stats",
    icon: BlocksIcon,
    provider: "blockchain_stats",
  },
  { to: paths.user.cryptoNews, label: "Crypto news", icon: NewsIcon, provider: "crypto_news" },
  {
    to: paths.user.cryptoMarket,
    label: "Crypto market",
    icon: CoinsIcon,
    provider: "crypto_market",
  },
];

/**
 * The market-information links whose provider is set up (issue 13: a provider the operator
 * has not set up is hidden, not linked to an error page). None until the server has said.
 */
export function useMarketInfoLinks(): readonly IconNavItem[] {
  const providers = useMarketInfoProviders();
  if (!providers) return [];
  return marketInfoItems.filter((item) => providers[item.provider]);
}
