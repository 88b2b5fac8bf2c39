import { marketInfoUiMessages, type NewsItem } from "@tp/domain/market-info";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { NewsIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { safeExternalUrl } from "../../components/safe-url.ts";
import { formatDateTime } from "../../components/trade-format.ts";
import { appendUnseen, useCryptoNews } from "../../market-info/crypto-news-api.ts";
import { serverDetails } from "../../market-info/market-info-retry.ts";
import { MarketInfoFailure, MarketInfoLoading } from "./market-info-states.tsx";

/** The next page starts loading this far before the end of the list comes into view. */
const infinite_scroll_margin_px = 600;

function CoverImage({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  const url = src === null ? null : safeExternalUrl(src);
  if (url === null || failed || url.startsWith("mailto:")) return null;
  return (
    <img
      src={url}
      alt=""
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      className="hidden h-24 w-36 shrink-0 rounded-xl bg-slate-100 object-cover sm:block dark:bg-navy-800"
    />
  );
}

function NewsArticle({ item }: { item: NewsItem }) {
  const url = safeExternalUrl(item.url);
  const titleId = `news-${item.id}`;
  return (
    <li aria-labelledby={titleId} className="flex gap-4 px-4 py-4 sm:px-5">
      <CoverImage src={item.cover_image_url} />
      <div className="min-w-0 flex-1">
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {item.source_name ? (
            <span className="font-semibold text-slate-700 dark:text-slate-300">
              {item.source_name}
            </span>
          ) : null}
          {item.source_name ? " · " : null}
          <time dateTime={item.published_at}>{formatDateTime(item.published_at)}</time>
        </p>
        <h2 id={titleId} className="mt-1 font-semibold leading-snug text-slate-900 dark:text-white">
          {url ? (
            <a
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              className="hover:text-brand-600 hover:underline underline-offset-2 dark:hover:text-brand-400"
            >
              {item.title}
            </a>
          ) : (
            item.title
          )}
        </h2>
        {item.subtitle ? (
          <p className="mt-1 line-clamp-2 text-sm text-slate-600 dark:text-slate-400">
            {item.subtitle}
          </p>
        ) : null}
        {item.assets.length > 0 ? (
          <ul aria-label="Coins" className="mt-2 flex flex-wrap gap-1.5">
            {item.assets.map((asset) => (
              <li
                key={asset.symbol}
                title={asset.name}
                className="rounded-md bg-brand-600/10 px-2 py-0.5 text-xs font-semibold text-brand-700 dark:text-brand-300"
              >
                {asset.symbol}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

/** Calls `onVisible` whenever the returned element comes near the viewport. */
function useNearViewport(onVisible: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const element = ref.current;
    if (!enabled || element === null || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: `0px 0px ${infinite_scroll_margin_px}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}

/** SPEC §2 "Crypto news: infinite scroll"; §7 appends unseen ids; §8 "Failed to load news". */
export function CryptoNewsPage() {
  const news = useCryptoNews();
  const items = useMemo(
    () =>
      (news.data?.pages ?? []).reduce<NewsItem[]>(
        (shown, page) => appendUnseen(shown, page.data),
        [],
      ),
    [news.data],
  );
  const nextPageFailed = news.isFetchNextPageError;
  const canLoadMore = news.hasNextPage && !news.isFetchingNextPage && !nextPageFailed;
  const sentinel = useNearViewport(() => {
    if (canLoadMore) void news.fetchNextPage();
  }, canLoadMore);
  const details = serverDetails(news.error);
  const source = news.data?.pages[0]?.source ?? null;

  let body: ReactNode;
  if (news.data) {
    body = (
      <>
        {items.length > 0 ? (
          <Card className="!p-0 overflow-hidden">
            <ul aria-label="Crypto news" className="divide-y divide-slate-100 dark:divide-navy-800">
              {items.map((item) => (
                <NewsArticle key={item.id} item={item} />
              ))}
            </ul>
          </Card>
        ) : (
          <Card className="py-14 text-center text-sm text-slate-600 dark:text-slate-400">
            No news available right now.
          </Card>
        )}
        <div ref={sentinel} className="mt-5 flex flex-col items-center gap-2 text-center">
          {news.isFetchingNextPage ? (
            <MoreLoading />
          ) : nextPageFailed ? (
            <div role="alert" className="flex flex-col items-center gap-2">
              <p className="text-sm font-semibold text-slate-900 dark:text-white">
                {marketInfoUiMessages.newsFailed}
              </p>
              {details ? (
                <p className="max-w-lg text-sm text-slate-600 dark:text-slate-400">{details}</p>
              ) : null}
              <Button variant="secondary" size="sm" onClick={() => void news.fetchNextPage()}>
                Try again
              </Button>
            </div>
          ) : news.hasNextPage ? (
            <Button variant="secondary" size="sm" onClick={() => void news.fetchNextPage()}>
              Load more news
            </Button>
          ) : items.length > 0 ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">
              You have reached the end of the news.
            </p>
          ) : null}
          {source ? (
            <p className="text-xs text-slate-500 dark:text-slate-400">News from {source}.</p>
          ) : null}
        </div>
      </>
    );
  } else if (news.isError) {
    body = (
      <MarketInfoFailure
        title={marketInfoUiMessages.newsFailed}
        details={details ?? "The news could not be loaded. Please check your connection."}
        onRetry={() => void news.refetch()}
        retrying={news.isFetching}
        icon={<NewsIcon className="size-7" />}
      />
    );
  } else {
    body = <MarketInfoLoading label="Loading news" />;
  }

  return (
    <>
      <PageTitle title="Crypto News" description="The latest news from the crypto markets." />
      {body}
    </>
  );
}

function MoreLoading() {
  return (
    <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
      Loading...
    </p>
  );
}
