import { findAsset } from "@tp/domain/catalogue";
import type { MarketView } from "../../api/markets.ts";
import { formatPrice } from "../../components/trade-format.ts";
import { useLivePrices } from "../../stream/stream-context.ts";
import { changeTone, formatChange, liveChangePercent } from "./market-change.ts";
import { MarketStateTag } from "./market-state-tag.tsx";
import { SimulatedPricesLabel } from "./simulated-prices-label.tsx";

/**
 * SPEC §9's default tape (S&P 500, Nasdaq 100, EUR/USD, BTC/USD, ETH/USD) with the other
 * forex pairs of the catalogue and gold: SPEC §2 calls it a forex ticker.
 */
export const tickerSymbols = [
  "US500",
  "US100",
  "EURUSD",
  "BTCUSDT",
  "ETHUSDT",
  "GBPUSD",
  "USDJPY",
  "EURGBP",
  "EURJPY",
  "GBPJPY",
  "AUDCAD",
  "AUDJPY",
  "XAUUSD",
] as const;

interface TickerProps {
  markets: ReadonlyMap<string, MarketView>;
  /** The dashboard's selected asset (marked), and how to select another from the tape. */
  selected: string;
  onPick: (symbol: string) => void;
}

function TickerItems({
  markets,
  selected,
  onPick,
  livePrice,
  hidden = false,
}: TickerProps & { livePrice: ReturnType<typeof useLivePrices>; hidden?: boolean }) {
  return (
    <ul className="flex shrink-0 items-center" aria-hidden={hidden || undefined}>
      {tickerSymbols.map((symbol) => {
        const market = markets.get(symbol);
        const live = livePrice(symbol);
        const change = liveChangePercent(market, live);
        return (
          <li key={symbol} className="border-r border-slate-200 px-1.5 dark:border-navy-700">
            <button
              type="button"
              onClick={() => onPick(symbol)}
              aria-pressed={symbol === selected}
              // The second copy only keeps the tape seamless: out of the tab order too.
              tabIndex={hidden ? -1 : undefined}
              className={`flex items-baseline gap-2 whitespace-nowrap rounded-md px-2.5 py-0.5 text-xs transition-colors ${
                symbol === selected
                  ? "bg-brand-600/10 ring-1 ring-brand-500/30 dark:bg-brand-500/15"
                  : "hover:bg-slate-50 dark:hover:bg-navy-800"
              }`}
            >
              <span className="font-semibold text-slate-800 dark:text-slate-100">
                {findAsset(symbol)?.name ?? symbol}
              </span>
              <span className="tabular-nums text-slate-700 dark:text-slate-200">
                {formatPrice(symbol, live?.price ?? market?.price)}
              </span>
              <span className={`tabular-nums font-semibold ${changeTone(change)}`}>
                {formatChange(change)}
              </span>
              <MarketStateTag market={market} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The scrolling strip on top of the dashboard (SPEC §2), live from the stream. It scrolls by
 * a CSS animation over two copies of the list (the second hidden from screen readers); with
 * reduced motion asked for it stands still and scrolls by hand. Hovering pauses it. Picking
 * an item selects that asset on the whole dashboard.
 */
export function TickerStrip({ markets, selected, onPick }: TickerProps) {
  const livePrice = useLivePrices(tickerSymbols);
  const simulated = tickerSymbols.some(
    (symbol) => (livePrice(symbol)?.source ?? markets.get(symbol)?.source) === "simulated",
  );
  return (
    <section
      aria-label="Ticker"
      className="flex items-center overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm dark:border-navy-700 dark:bg-navy-900"
    >
      {simulated ? (
        <div className="z-10 shrink-0 border-r border-slate-200 bg-white py-2 pr-2 pl-3 dark:border-navy-700 dark:bg-navy-900">
          <SimulatedPricesLabel />
        </div>
      ) : null}
      <div className="group min-w-0 flex-1 overflow-hidden py-2.5 motion-reduce:overflow-x-auto">
        <div className="flex w-max animate-ticker group-hover:[animation-play-state:paused] motion-reduce:animate-none">
          <TickerItems {...{ markets, selected, onPick, livePrice }} />
          <TickerItems {...{ markets, selected, onPick, livePrice }} hidden />
        </div>
      </div>
    </section>
  );
}
