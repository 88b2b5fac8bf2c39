import { useQuery } from "@tanstack/react-query";
import { Fragment, type ReactNode } from "react";
import { PageTitle } from "../../components/page-title.tsx";
import type { QueueFilter, QueueQueryOptions } from "../api/queues.ts";
import {
  NothingSelected,
  nextSelection,
  QueueColumns,
  QueueList,
  StatusFilter,
  useQueueParams,
} from "./queue-layout.tsx";

/** What every queue item has: the list selects by `id`. */
export interface QueueItem {
  id: number;
}

export interface QueuePageProps<Item extends QueueItem, Status extends string> {
  /** The page's heading and the sentence under it. */
  title: string;
  description: string;
  /** The filter's choices ("All" follows them), what it is called, and the one shown first. */
  statuses: readonly Status[];
  statusLabel: string;
  defaultStatus: Status;
  /** The list's heading, and what it says when a status has nothing. */
  listLabel: string;
  emptyText: string;
  /** Beside the list on a desktop until an item is picked. */
  nothingSelectedText: string;
  /** The list of one status and page. */
  query: (filter: QueueFilter<Status>) => QueueQueryOptions<Item>;
  /** An item's line in the list (inside the row's button). */
  renderRow: (item: Item) => ReactNode;
  /**
   * The picked item's panel and its decisions; `onDecided` after a decision moves on to the
   * next item. The panel is mounted afresh for each item (its dialogs and form state reset).
   */
  renderDetail: (item: Item, onDecided: () => void) => ReactNode;
  /** Under the queue: e.g. the auditors' export of this queue. */
  footer?: ReactNode;
}

/**
 * A review queue of the back office (deposits, withdrawals, identity documents): the status
 * filter, one page of the list and the picked item's detail. Status, page and pick live in
 * the address (useQueueParams), so a link or a reload shows the same item.
 */
export function QueuePage<Item extends QueueItem, Status extends string>({
  title,
  description,
  statuses,
  statusLabel,
  defaultStatus,
  listLabel,
  emptyText,
  nothingSelectedText,
  query: queryFor,
  renderRow,
  renderDetail,
  footer,
}: QueuePageProps<Item, Status>) {
  const params = useQueueParams<Status>(statuses, defaultStatus);
  const query = useQuery(queryFor({ status: params.status, page: params.page }));
  const items = query.data?.data;
  const selected = items?.find((item) => item.id === params.selectedId) ?? null;

  const afterDecision = (id: number) => {
    // The decided item leaves a filtered list: move on to the next one.
    if (params.status !== undefined) params.select(nextSelection(items, getId, id));
  };

  return (
    <>
      <PageTitle title={title} description={description} />
      <StatusFilter
        label={statusLabel}
        statuses={statuses}
        current={params.status}
        onChange={params.setStatus}
      />
      <QueueColumns
        selectedId={selected ? selected.id : null}
        list={
          <QueueList
            label={listLabel}
            items={items}
            isLoading={query.isLoading}
            error={query.error}
            isFetching={query.isFetching}
            onRetry={() => void query.refetch()}
            emptyText={emptyText}
            getId={getId}
            selectedId={params.selectedId}
            onSelect={params.select}
            page={params.page}
            lastPage={query.data?.pagination.last_page ?? 1}
            total={query.data?.pagination.total ?? 0}
            onPage={params.setPage}
            renderRow={renderRow}
          />
        }
        detail={
          selected ? (
            <Fragment key={selected.id}>
              {renderDetail(selected, () => afterDecision(selected.id))}
            </Fragment>
          ) : (
            <NothingSelected text={nothingSelectedText} />
          )
        }
      />
      {footer}
    </>
  );
}

const getId = (item: QueueItem) => item.id;
