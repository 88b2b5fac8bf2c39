import type { ReactNode } from "react";
import { TableScroller } from "../../components/table-scroller.tsx";

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  align?: "left" | "right";
  /** Keep the cell on one line (dates, amounts). */
  nowrap?: boolean;
}

/** A plain read-only table; scrolls sideways on a narrow screen instead of squeezing. */
export function SimpleTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  emptyText,
  minWidthClass = "min-w-[40rem]",
}: {
  caption: string;
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  emptyText: string;
  /** A Tailwind min-w-[…] class (no inline styles: the CSP allows none). */
  minWidthClass?: string;
}) {
  if (rows.length === 0) {
    return <p className="py-8 text-center text-sm text-slate-500">{emptyText}</p>;
  }
  return (
    <TableScroller label={caption}>
      <table className={`w-full text-sm ${minWidthClass}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 dark:border-navy-700">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={`px-3 py-2.5 text-xs font-semibold uppercase tracking-wide whitespace-nowrap text-slate-500 dark:text-slate-400 ${
                  column.align === "right" ? "text-right" : "text-left"
                }`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 tabular-nums dark:divide-navy-800">
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`px-3 py-2 align-top ${column.align === "right" ? "text-right" : ""} ${
                    column.nowrap ? "whitespace-nowrap" : "break-words"
                  }`}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}
