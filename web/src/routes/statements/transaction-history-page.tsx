import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { fundingMessages, type TransactionRow, transactionStatusTone } from "@tp/domain/funding";
import { formatUsd } from "@tp/domain/money";
import { useSearchParams } from "react-router";
import {
  transaction_page_size,
  transactionHistoryQueryOptions,
} from "../../api/transaction-history.ts";
import { Card } from "../../components/card.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { QueryStates } from "../../components/query-states.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { TableScroller } from "../../components/table-scroller.tsx";
import { TextLink } from "../../components/text-link.tsx";
import { formatDateTime } from "../../components/trade-format.ts";
import { narrow_screen_query, useMediaQuery } from "../../components/use-media-query.ts";
import { TransactionActions } from "../../funding/transaction-actions.tsx";
import {
  transactionStatusClass,
  transactionStatusLabel,
} from "../../funding/transaction-status.ts";
import { paths } from "../../paths.ts";
import { statementTabs } from "./statement-tabs.ts";

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

const typeLabels: Record<TransactionRow["type"], string> = {
  deposit: "Deposit",
  withdrawal: "Withdrawal",
};

function StatusBadge({ row }: { row: TransactionRow }) {
  return (
    <span
      data-tone={transactionStatusTone(row.status)}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${transactionStatusClass(row.status)}`}
    >
      {transactionStatusLabel(row.status)}
    </span>
  );
}

function signedAmount(row: TransactionRow): string {
  return row.type === "withdrawal" ? `-${formatUsd(row.amount)}` : `+${formatUsd(row.amount)}`;
}

/** The fee kept on the request and what it leaves (issue 13 item 3); null when none. */
function feeNote(row: TransactionRow): string | null {
  if (row.fee <= 0) return null;
  const net = row.type === "withdrawal" ? "paid out" : "credited";
  return `Fee ${formatUsd(row.fee)} · ${net} ${formatUsd(row.net_amount)}`;
}

const cell = "px-3 py-2.5";
const head = `${cell} whitespace-nowrap text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400`;

function TransactionsTable({ rows }: { rows: readonly TransactionRow[] }) {
  return (
    <TableScroller label="Transactions">
      <table className="w-full min-w-[44rem] text-left text-sm">
        <caption className="sr-only">Transactions</caption>
        <thead className="border-b border-slate-200 dark:border-navy-700">
          <tr>
            <th scope="col" className={head}>
              Timestamp
            </th>
            <th scope="col" className={head}>
              Type
            </th>
            <th scope="col" className={head}>
              Method
            </th>
            <th scope="col" className={`${head} text-right`}>
              Amount
            </th>
            <th scope="col" className={head}>
              Status
            </th>
            <th scope="col" className={head}>
              Transaction ID
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 tabular-nums dark:divide-navy-800">
          {rows.map((row) => (
            <tr key={`${row.type}-${row.id}`} data-transaction={row.transactionId}>
              <td className={`${cell} whitespace-nowrap text-slate-700 dark:text-slate-200`}>
                {formatDateTime(row.timestamp)}
              </td>
              <td className={`${cell} font-semibold`}>{typeLabels[row.type]}</td>
              <td className={cell}>{row.method}</td>
              <td
                className={`${cell} whitespace-nowrap text-right font-semibold ${
                  row.type === "withdrawal"
                    ? "text-slate-900 dark:text-white"
                    : "text-emerald-700 dark:text-emerald-400"
                }`}
              >
                {signedAmount(row)}
                {feeNote(row) ? (
                  <p className="mt-0.5 text-xs font-normal text-slate-500 dark:text-slate-400">
                    {feeNote(row)}
                  </p>
                ) : null}
              </td>
              <td className={cell}>
                <StatusBadge row={row} />
                {row.note ? (
                  <p className="mt-1 max-w-56 text-xs text-slate-500 dark:text-slate-400">
                    {row.note}
                  </p>
                ) : null}
                <TransactionActions row={row} />
              </td>
              <td className={`${cell} font-mono text-xs text-slate-600 dark:text-slate-300`}>
                {row.transactionId}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

function TransactionCards({ rows }: { rows: readonly TransactionRow[] }) {
  return (
    <ul aria-label="Transactions" className="grid grid-cols-1 gap-2">
      {rows.map((row) => (
        <li
          key={`${row.type}-${row.id}`}
          data-transaction={row.transactionId}
          className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 rounded-xl border border-slate-200 p-3 text-sm tabular-nums dark:border-navy-700"
        >
          <span className="font-semibold text-slate-900 dark:text-white">
            {typeLabels[row.type]} · {row.method}
          </span>
          <span className="justify-self-end">
            <StatusBadge row={row} />
          </span>
          <span className="text-xs text-slate-500 dark:text-slate-400">
            {formatDateTime(row.timestamp)}
          </span>
          <span className="justify-self-end font-semibold">{signedAmount(row)}</span>
          {feeNote(row) ? (
            <span className="col-span-2 justify-self-end text-xs text-slate-500 dark:text-slate-400">
              {feeNote(row)}
            </span>
          ) : null}
          <span className="col-span-2 break-all font-mono text-xs text-slate-500 dark:text-slate-400">
            {row.transactionId}
          </span>
          {row.note ? (
            <span className="col-span-2 text-xs text-slate-600 dark:text-slate-300">
              {row.note}
            </span>
          ) : null}
          <span className="col-span-2">
            <TransactionActions row={row} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * SPEC §2 "History pages", §3 "Transaction row", §8: deposits and withdrawals, newest
 * first, 10 a page, the page in the address (?page=2). Status colours: confirmed green,
 * pending yellow, anything else red.
 */
export function TransactionHistoryPage() {
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get("page"));
  const narrow = useMediaQuery(narrow_screen_query);
  const history = useQuery({
    ...transactionHistoryQueryOptions(page, transaction_page_size),
    refetchOnWindowFocus: true,
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <PageTitle
        title="Transaction History"
        description="Your deposits and withdrawals, newest first."
      />
      <SectionTabs label="Statements" tabs={statementTabs} />
      <Card aria-labelledby="transactions-title">
        <h2 id="transactions-title" className="mb-4 text-lg font-semibold">
          Transactions
        </h2>
        <QueryStates
          query={history}
          loadingLabel="Loading transactions"
          failureTitle={fundingMessages.transactionsFailed}
          isEmpty={(data) => data.data.length === 0}
          empty={
            <div className="py-8 text-center text-sm text-slate-500 dark:text-slate-400">
              <p>No transactions yet.</p>
              <p className="mt-2">
                <TextLink to={paths.user.fundWallet}>Deposit Funds</TextLink>
              </p>
            </div>
          }
        >
          {(data) =>
            narrow ? <TransactionCards rows={data.data} /> : <TransactionsTable rows={data.data} />
          }
        </QueryStates>
        <Pagination
          label="Transaction pages"
          current={history.data?.pagination.current_page ?? page}
          last={history.data?.pagination.last_page ?? 1}
          onPage={(next) => setParams(next > 1 ? { page: String(next) } : {})}
        />
      </Card>
    </>
  );
}
