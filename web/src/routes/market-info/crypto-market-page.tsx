import {
  type CryptoMarketData,
  coinImagePath,
  type MarketDataItem,
  marketInfoUiMessages,
} from "@tp/domain/market-info";
import { type ReactNode, useState } from "react";
import { Card } from "../../components/card.tsx";
import { CoinsIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { formatDateTime } from "../../components/trade-format.ts";
import { useCryptoMarket } from "../../market-info/crypto-market-api.ts";
import { serverDetails } from "../../market-info/market-info-retry.ts";
import { MarketInfoFailure, MarketInfoLoading } from "./market-info-states.tsx";

const usdCompact = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  maximumFractionDigits: 2,
});
const usdPrice = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const usdSmallPrice = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumSignificantDigits: 4,
});
const percent = new Intl.NumberFormat("en-US", {
  maximumFractionDigits: 2,
  minimumFractionDigits: 2,
  signDisplay: "exceptZero",
});

/** $96,512.37, or four significant digits below a dollar ($0.2531, $0.00001234). */
export function formatCoinPrice(price: number): string {
  return Math.abs(price) >= 1 ? usdPrice.format(price) : usdSmallPrice.format(price);
}

/** $41.24B; "—" when the provider gave no figure (never a made-up 0). */
export function formatCompactUsd(value: number | null): string {
  return value === null ? "—" : usdCompact.format(value);
}

function Change({ value }: { value: number | null }) {
  if (value === null) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  const tone =
    value > 0
      ? "text-emerald-700 dark:text-emerald-400"
      : value < 0
        ? "text-red-700 dark:text-red-400"
        : "text-slate-600 dark:text-slate-300";
  return <span className={`font-semibold ${tone}`}>{percent.format(value)}%</span>;
}

/**
 * The coin's logo from our own server (the CSP allows no outside image host); its symbol in
 * a circle when there is none, so a missing logo never shows a broken image.
 */
function CoinLogo({ coin }: { coin: MarketDataItem }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-200 text-[0.6rem] font-bold text-slate-700 dark:bg-navy-700 dark:text-slate-200"
      >
        {coin.symbol.slice(0, 4)}
      </span>
    );
  }
  return (
    <img
      src={coinImagePath(coin.id)}
      alt=""
      width={32}
      height={32}
      loading="lazy"
      onError={() => setFailed(true)}
      className="size-8 shrink-0 rounded-full"
    />
  );
}

const headerCell =
  "px-3 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400";

function CoinTable({ market }: { market: CryptoMarketData }) {
  return (
    <Card className="!p-0 overflow-hidden">
      <table className="w-full text-sm">
        <caption className="sr-only">
          Top {market.data.length} cryptocurrencies by market capitalisation
        </caption>
        <thead className="border-b border-slate-200 dark:border-navy-700">
          <tr>
            <th scope="col" className={`${headerCell} hidden w-10 text-right sm:table-cell`}>
              #
            </th>
            <th scope="col" className={`${headerCell} text-left`}>
              Coin
            </th>
            <th scope="col" className={`${headerCell} text-right`}>
              Price
            </th>
            <th scope="col" className={`${headerCell} hidden text-right sm:table-cell`}>
              24h
            </th>
            <th scope="col" className={`${headerCell} hidden text-right md:table-cell`}>
              Volume (24h)
            </th>
            <th scope="col" className={`${headerCell} hidden text-right md:table-cell`}>
              Market cap
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-navy-800">
          {market.data.map((coin, index) => {
            const usd = coin.quote.USD;
            return (
              <tr key={coin.id}>
                <td className="hidden px-3 py-3 text-right text-slate-500 tabular-nums sm:table-cell dark:text-slate-400">
                  {index + 1}
                </td>
                <th scope="row" className="px-3 py-3 text-left font-normal">
                  <span className="flex items-center gap-3">
                    <CoinLogo coin={coin} />
                    <span className="min-w-0">
                      <span className="block truncate font-semibold text-slate-900 dark:text-white">
                        {coin.name}
                      </span>
                      <span className="block text-xs text-slate-500 dark:text-slate-400">
                        {coin.symbol}
                      </span>
                      {/* On a phone the two wide columns fold in under the name. */}
                      <span className="block text-xs text-slate-500 md:hidden dark:text-slate-400">
                        Vol {formatCompactUsd(usd.volume_24h)}
                      </span>
                      <span className="block text-xs text-slate-500 md:hidden dark:text-slate-400">
                        Cap {formatCompactUsd(usd.market_cap)}
                      </span>
                    </span>
                  </span>
                </th>
                <td className="px-3 py-3 text-right font-semibold text-slate-900 tabular-nums dark:text-white">
                  {formatCoinPrice(usd.price)}
                  {/* On a phone the change sits under the price. */}
                  <span className="block text-xs sm:hidden">
                    <Change value={usd.percent_change_24h} />
                  </span>
                </td>
                <td className="hidden px-3 py-3 text-right tabular-nums sm:table-cell">
                  <Change value={usd.percent_change_24h} />
                </td>
                <td className="hidden px-3 py-3 text-right text-slate-700 tabular-nums md:table-cell dark:text-slate-300">
                  {formatCompactUsd(usd.volume_24h)}
                </td>
                <td className="hidden px-3 py-3 text-right text-slate-700 tabular-nums md:table-cell dark:text-slate-300">
                  {formatCompactUsd(usd.market_cap)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}

/** SPEC §3 "Market data": the top coins with logo, price, 24 h change, volume and market cap. */
export function CryptoMarketPage() {
  const market = useCryptoMarket();
  const details = serverDetails(market.error);

  let body: ReactNode;
  if (market.data) {
    body = (
      <div className="flex flex-col gap-3">
        {market.isError ? (
          <p
            role="status"
            className="rounded-xl border border-amber-400/40 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200"
          >
            These figures could not be refreshed{details ? `: ${details}` : "."} Showing the last
            figures received.
          </p>
        ) : null}
        {market.data.data.length === 0 ? (
          <Card className="py-12 text-center text-sm text-slate-600 dark:text-slate-400">
            {marketInfoUiMessages.noData}
          </Card>
        ) : (
          <CoinTable market={market.data} />
        )}
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Source: {market.data.source}, fetched {formatDateTime(market.data.fetched_at)}. Refreshed
          every minute. Prices here are for information; trades use the trading screen's prices.
        </p>
      </div>
    );
  } else if (market.isError) {
    body = (
      <MarketInfoFailure
        title={marketInfoUiMessages.noData}
        details={details ?? "The market data could not be loaded. Please check your connection."}
        onRetry={() => void market.refetch()}
        retrying={market.isFetching}
        icon={<CoinsIcon className="size-7" />}
      />
    );
  } else {
    body = <MarketInfoLoading label="Loading crypto market data" />;
  }

  return (
    <>
      <PageTitle
        title="Crypto Market"
        description="The largest cryptocurrencies by market capitalisation."
      />
      {body}
    </>
  );
}
