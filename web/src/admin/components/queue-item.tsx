import type { AdminTraderRef } from "@tp/domain/admin-api";
import { Fragment, type ReactNode } from "react";
import { Card } from "../../components/card.tsx";
import { formatDateTime } from "./admin-format.ts";
import { StatusBadge } from "./status-badge.tsx";
import { TraderRef } from "./trader-ref.tsx";

/** What the three queues' items share: whose it is, where it stands, who decided. */
export interface ReviewedItem {
  id: number;
  status: string;
  trader: AdminTraderRef;
  reviewed_at: string | null;
  reviewed_by: { email: string } | null;
}

/** An item's line in a queue list: the trader, `#id · facts…`, and the amount and status. */
export function QueueRow({
  item,
  facts,
  amount,
  badge,
}: {
  item: ReviewedItem;
  facts: readonly string[];
  /** Shown above the status when the item is a sum of money. */
  amount?: string;
  /** A flag under the facts (e.g. "Awaiting second approval"). */
  badge?: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3">
      <div className="min-w-0 flex-1">
        <TraderRef trader={item.trader} link={false} />
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          #{item.id}
          {facts.map((fact, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the facts are a fixed list
            <Fragment key={index}> · {fact}</Fragment>
          ))}
        </p>
        {badge ? <div className="mt-1">{badge}</div> : null}
      </div>
      {amount === undefined ? (
        <StatusBadge status={item.status} />
      ) : (
        <div className="flex shrink-0 flex-col items-end gap-1">
          <span className="font-semibold tabular-nums">{amount}</span>
          <StatusBadge status={item.status} />
        </div>
      )}
    </div>
  );
}

/**
 * The frame of a picked item's panel: its title and status, a summary line, the decision
 * buttons while it waits for one, and the trader; the queue's own facts follow.
 */
export function QueueDetail({
  item,
  titleId,
  title,
  summary,
  actions,
  children,
}: {
  item: ReviewedItem;
  /** The heading's id, which names the panel. */
  titleId: string;
  title: ReactNode;
  summary: ReactNode;
  /** The decision buttons; null once the item is decided. */
  actions: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={titleId}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={titleId} className="flex items-center gap-2 font-semibold">
            {title} <StatusBadge status={item.status} />
          </h2>
          {summary}
        </div>
        {actions ? <div className="flex gap-2">{actions}</div> : null}
      </div>
      <div className="mb-4 rounded-xl bg-slate-50 p-3 dark:bg-navy-950/60">
        <TraderRef trader={item.trader} />
      </div>
      {children}
    </Card>
  );
}

/** "Reviewed <when> by <whom>" once staff decided, else nothing. */
export function reviewedFacts(item: ReviewedItem): Array<[string, string]> {
  if (!item.reviewed_at) return [];
  const by = item.reviewed_by ? ` by ${item.reviewed_by.email}` : "";
  return [["Reviewed", `${formatDateTime(item.reviewed_at)}${by}`]];
}

/** A fact only when it has a value (a payout reference, a rejection reason). */
export function factIfSet(term: string, value: string | null): Array<[string, string]> {
  return value ? [[term, value]] : [];
}
