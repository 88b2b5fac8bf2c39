import { useQueryClient } from "@tanstack/react-query";
import type { UserView } from "@tp/domain/api";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { depositRootKey, withdrawalRootKey } from "../api/cashier.ts";
import { applyMarketState, marketsQueryKey } from "../api/markets.ts";
import { applyNotification, notificationsQueryKey } from "../api/notifications.ts";
import { tradeAuditQueryKey } from "../api/trade-audit.ts";
import { type TradeHistoryPage, tradeHistoryRootKey, upsertTrade } from "../api/trade-history.ts";
import { transactionHistoryRootKey } from "../api/transaction-history.ts";
import { userQueryKey } from "../api/user.ts";
import { LivePrices } from "./live-prices.ts";
import { LiveStream, streamUrl } from "./live-stream.ts";
import { ResyncSignal } from "./resync-signal.ts";
import { SettlementAnnouncer } from "./settlement-announcer.ts";
import { StreamContext, type StreamState } from "./stream-context.ts";

/**
 * One live socket for the signed-in pages (PRODUCT.md D10). Its events update the query
 * cache in place: trades into the history pages, balances into the user, notifications into
 * the list and the bell's unread count, a market's state into the market list; a settled
 * trade gets a toast. When the socket first signs in (the page's first reads may predate
 * it), after it comes back from a drop, or when the server says its event bus was down
 * (`refetch`), everything it may have missed is read again.
 */
export function StreamProvider({ token, children }: { token: string; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [prices] = useState(() => new LivePrices());
  const [announcer] = useState(() => new SettlementAnnouncer());
  const [resync] = useState(() => new ResyncSignal());
  const [stream, setStream] = useState<LiveStream | null>(null);

  useEffect(() => () => prices.dispose(), [prices]);

  // Polled history pages (socket down) also reveal settlements: a trade seen open, now not.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== "updated" || event.action.type !== "success") return;
        if (event.query.queryKey[0] !== tradeHistoryRootKey[0]) return;
        const page = event.query.state.data as TradeHistoryPage | undefined;
        for (const trade of page?.data ?? []) announcer.observe(trade, { fromEvent: false });
      }),
    [queryClient, announcer],
  );

  useEffect(() => {
    const next = new LiveStream({ url: streamUrl(), token, prices });
    const readEventStateAgain = () => {
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
      void queryClient.invalidateQueries({ queryKey: marketsQueryKey });
      void queryClient.invalidateQueries({ queryKey: tradeHistoryRootKey });
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
      void queryClient.invalidateQueries({ queryKey: transactionHistoryRootKey });
    };
    const readMissedAgain = () => {
      readEventStateAgain();
      resync.bump();
    };
    let wasLive = false;
    let missedEvents = false;
    next.onStatus((status) => {
      if (status !== "live") {
        if (wasLive) missedEvents = true;
        return;
      }
      if (!wasLive) {
        // The first reads of the page raced the socket's sign-in: a trade placed (or a
        // balance moved) after a read but before the server indexed this socket reached
        // neither. Read again what holds such state; the candles only miss ticks, which the
        // next tick makes good, so the chart keeps what it loaded.
        wasLive = true;
        readEventStateAgain();
        return;
      }
      if (missedEvents) {
        missedEvents = false;
        readMissedAgain();
      }
    });
    next.onRefetch(readMissedAgain);
    next.onMarketState((event) => applyMarketState(queryClient, event));
    // An event applied to the cache while a read of the same data is on its way is undone
    // when that read lands, if the server answered it before the event: read it again.
    const readAgainIfFetching = (queryKey: readonly unknown[]) => {
      if (queryClient.isFetching({ queryKey }) > 0) {
        void queryClient.invalidateQueries({ queryKey });
      }
    };
    next.onTrade((trade) => {
      upsertTrade(queryClient, trade);
      readAgainIfFetching(tradeHistoryRootKey);
      void queryClient.invalidateQueries({ queryKey: tradeAuditQueryKey(trade.id) });
      announcer.observe(trade, { fromEvent: true });
    });
    next.onBalance((balances) => {
      queryClient.setQueryData<UserView | null>(userQueryKey, (user) =>
        user ? { ...user, account: { ...user.account, ...balances } } : user,
      );
      readAgainIfFetching(userQueryKey);
    });
    next.onNotification(({ notification, unread_count }) => {
      applyNotification(queryClient, notification, unread_count);
      // Staff decided on a deposit, withdrawal or document: the pages showing them change.
      if (notification && notification.kind !== "broadcast") {
        void queryClient.invalidateQueries({ queryKey: transactionHistoryRootKey });
        void queryClient.invalidateQueries({ queryKey: userQueryKey });
        // The deposit success card and a withdrawal's timeline follow the decision at once.
        void queryClient.invalidateQueries({ queryKey: depositRootKey });
        void queryClient.invalidateQueries({ queryKey: withdrawalRootKey });
      }
      // Read on another device: which ones is not said, so the list is read again.
      if (notification === null) {
        void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
      }
    });
    next.start();
    setStream(next);
    return () => {
      next.stop();
      setStream(null);
    };
  }, [token, prices, queryClient, announcer, resync]);

  const state = useMemo<StreamState>(
    () => ({ stream, prices, announcer, resync }),
    [stream, prices, announcer, resync],
  );
  return <StreamContext value={state}>{children}</StreamContext>;
}
