import { useTradingConditions } from "../api/trading-conditions.ts";

export const simulatedRealBannerText =
  "Development setting: real balances are trading on simulated prices.";

/**
 * PRODUCT.md D2: while the operator lets real-account trades run on simulated prices, every
 * page says so. Nothing shows otherwise (or while the answer is not known).
 */
export function SimulatedRealBanner() {
  const { data } = useTradingConditions();
  if (!data?.real_trading_on_simulated_prices) return null;
  return (
    <div
      role="alert"
      className="bg-amber-500 px-4 py-2 text-center text-sm font-semibold text-navy-950"
    >
      {simulatedRealBannerText}
    </div>
  );
}
