import { useQuery } from "@tanstack/react-query";
import { marketStateMessages } from "@tp/domain/market-state";
import { type MarketView, marketsQueryOptions } from "../api/markets.ts";

/**
 * What the deposit page says about real trading, or null when most markets trade on the
 * real account. Markets whose real trading is off are counted; the reason given is
 * simulated prices only when that is why (their source is the simulator).
 */
export function realTradingNotice(markets: readonly MarketView[]): string | null {
  const unavailable = markets.filter((market) => !market.real_trading);
  if (markets.length === 0 || unavailable.length * 2 <= markets.length) return null;
  const simulated = unavailable.every((market) => market.source === "simulated");
  if (unavailable.length === markets.length) {
    return simulated
      ? `${marketStateMessages.realUnavailable} Money you deposit cannot be traded on any market until the platform has live prices.`
      : "Real-account trading is not available on any market right now: money you deposit cannot be traded yet.";
  }
  return `Real-account trading is not available on ${unavailable.length} of ${markets.length} markets${
    simulated ? " while their prices are simulated" : " right now"
  }.`;
}

/**
 * Issue 11 "No dead ends with real money": before any money is sent, the deposit page says
 * when real-account trading is unavailable on most markets, and where trading works now.
 */
export function RealTradingNotice() {
  const markets = useQuery(marketsQueryOptions());
  const notice = markets.data ? realTradingNotice(markets.data) : null;
  if (notice === null) return null;
  return (
    <div
      role="note"
      aria-label="Real-account trading"
      className="mb-6 rounded-xl border border-amber-400/50 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:bg-amber-400/10 dark:text-amber-100"
    >
      <p className="font-semibold">{notice}</p>
      <p className="mt-1">
        The Practice Account trades every market now, on its own practice balance.
      </p>
    </div>
  );
}
