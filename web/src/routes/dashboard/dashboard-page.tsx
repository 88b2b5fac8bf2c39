import { useQuery } from "@tanstack/react-query";
import type { TradeView } from "@tp/domain/api";
import { tradingRestrictedNotice } from "@tp/domain/restricted-countries";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useMarkets } from "../../api/markets.ts";
import { dashboard_refetch_ms, dashboard_stale_ms, dashboardRetry } from "../../api/polling.ts";
import {
  type AccountKind,
  dashboard_trades_max,
  tradeHistoryQueryOptions,
} from "../../api/trade-history.ts";
import { userQueryOptions } from "../../api/user.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { CountryRestrictedNotice } from "../../components/country-restricted-notice.tsx";
import { DocumentTitle } from "../../components/document-title.tsx";
import { TradeAuditDialog } from "../../components/trade-audit-dialog.tsx";
import { useNow } from "../../components/use-now.ts";
import { useIsLive, useStream } from "../../stream/stream-context.ts";
import { TwoFactorPrompt } from "../../two-factor/two-factor-prompt.tsx";
import { MarketOverview } from "./market-overview.tsx";
import { useMarketSelection } from "./market-selection.ts";
import { MarketSlideOver } from "./market-slide-over.tsx";
import { MarketStateBanner } from "./market-state-banner.tsx";
import { OpenTrades, visibleOpenTrades } from "./open-trades.tsx";
import { PriceChart } from "./price-chart.tsx";
import { RecentTrades } from "./recent-trades.tsx";
import { TickerStrip } from "./ticker-strip.tsx";
import { TradeBox } from "./trade-box.tsx";
import { useTradeForm } from "./use-trade-form.ts";

/** SPEC §4 / §9: picking a market shows a spinner this long, then its chart. */
export const market_switch_spinner_ms = 1_000;

/**
 * The trading dashboard (SPEC §2): ticker strip; market overview | chart | trade box, with
 * the open trades under the trade box and the recent history under everything. Below
 * 1024 px the overview becomes a slide-over; below 768 px (SPEC §9's mobile breakpoint, as
 * the shell draws it) the trade box goes under the chart. While the live socket is down
 * every list here is polled (SPEC §7).
 */
export function DashboardPage() {
  const { user } = useAuth();
  if (user === null) throw new Error("DashboardPage rendered without a signed-in user");
  const live = useIsLive();
  const { prices } = useStream();
  const now = useNow();

  const markets = useMarkets({ live });
  const marketMap = useMemo(
    () => new Map((markets.data ?? []).map((market) => [market.symbol, market])),
    [markets.data],
  );
  // Polled prices join the ticks in one store; the store keeps whichever is newer.
  useEffect(() => {
    for (const market of markets.data ?? []) {
      if (market.price === null || market.at === null) continue;
      prices.update(market.symbol, {
        price: market.price,
        atMs: Date.parse(market.at),
        source: market.source,
      });
    }
  }, [markets.data, prices]);

  // Balances come with the socket's balance events; without it, the user is polled.
  useQuery({
    ...userQueryOptions(),
    refetchInterval: live ? false : dashboard_refetch_ms,
  });

  const [account, setAccount] = useState<AccountKind>("practice");
  const trades = useQuery({
    ...tradeHistoryQueryOptions(account, 1, dashboard_trades_max),
    staleTime: dashboard_stale_ms,
    refetchInterval: live ? false : dashboard_refetch_ms,
    retry: dashboardRetry,
  });
  const openTrades = useMemo(
    () => visibleOpenTrades(trades.data?.data ?? [], now),
    [trades.data, now],
  );

  // One selection (issue 11): the chart shows what the trade box trades.
  const selection = useMarketSelection();
  const chartSymbol = selection.symbol;
  const [switching, setSwitching] = useState(false);
  const switchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const form = useTradeForm(selection);
  const [marketsOpen, setMarketsOpen] = useState(false);
  const [audited, setAudited] = useState<TradeView | null>(null);

  useEffect(
    () => () => {
      if (switchTimer.current !== null) clearTimeout(switchTimer.current);
    },
    [],
  );

  // SPEC §4: a market picked in the left panel shows the spinner first; so does the ticker.
  const { pickAsset } = form;
  const pickMarket = useCallback(
    (symbol: string) => {
      setMarketsOpen(false);
      pickAsset(symbol);
      setSwitching(true);
      if (switchTimer.current !== null) clearTimeout(switchTimer.current);
      switchTimer.current = setTimeout(() => {
        switchTimer.current = null;
        setSwitching(false);
      }, market_switch_spinner_ms);
    },
    [pickAsset],
  );

  return (
    <>
      <DocumentTitle title="Dashboard" />
      <h1 className="sr-only">Trading dashboard</h1>
      <div className="grid grid-cols-1 gap-4">
        <TwoFactorPrompt />
        <CountryRestrictedNotice
          country={user.account.country}
          label="Real-money trading"
          text={tradingRestrictedNotice}
        />
        <TickerStrip markets={marketMap} selected={chartSymbol} onPick={pickMarket} />
        <div className="grid items-start gap-4 md:grid-cols-[minmax(0,1fr)_19.5rem] lg:grid-cols-[14rem_minmax(0,1fr)_19.5rem]">
          <aside
            aria-label="Market overview"
            className="hidden h-full max-h-[calc(600px+7.5rem)] overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm lg:block dark:border-navy-700 dark:bg-navy-900"
          >
            <MarketOverview
              markets={marketMap}
              marketsQuery={markets}
              selected={chartSymbol}
              onPick={pickMarket}
            />
          </aside>
          <div className="grid min-w-0 grid-cols-1 gap-3">
            <button
              type="button"
              onClick={() => setMarketsOpen(true)}
              aria-haspopup="dialog"
              aria-expanded={marketsOpen}
              className="inline-flex items-center justify-center gap-2 self-start justify-self-start rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 shadow-xs hover:bg-slate-50 lg:hidden dark:border-navy-600 dark:bg-navy-800 dark:text-slate-100 dark:hover:bg-navy-700"
            >
              <span aria-hidden="true">☰</span>
              Markets
            </button>
            <MarketStateBanner symbol={chartSymbol} market={marketMap.get(chartSymbol)} />
            <PriceChart
              symbol={chartSymbol}
              market={marketMap.get(chartSymbol)}
              openTrades={openTrades}
              switching={switching}
            />
          </div>
          <div className="grid min-w-0 grid-cols-1 gap-4">
            <TradeBox
              user={user}
              account={account}
              onAccount={setAccount}
              form={form}
              markets={marketMap}
            />
            <OpenTrades trades={openTrades} now={now} onOpen={setAudited} />
          </div>
        </div>
        <RecentTrades account={account} trades={trades} onOpen={setAudited} />
      </div>
      {marketsOpen ? (
        <MarketSlideOver onClose={() => setMarketsOpen(false)}>
          <MarketOverview
            markets={marketMap}
            marketsQuery={markets}
            selected={chartSymbol}
            onPick={pickMarket}
          />
        </MarketSlideOver>
      ) : null}
      {audited ? <TradeAuditDialog trade={audited} onClose={() => setAudited(null)} /> : null}
    </>
  );
}
