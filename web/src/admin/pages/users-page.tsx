import { useQuery } from "@tanstack/react-query";
import type { AdminUserSummary } from "@tp/domain/admin-api";
import { isStaffRole } from "@tp/domain/api";
import { formatUsd } from "@tp/domain/money";
import { type FormEvent, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { SpinnerIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { TableScroller } from "../../components/table-scroller.tsx";
import { userSearchQuery } from "../api/users.ts";
import { adminUserPath, displayName, formatDateTime } from "../components/admin-format.ts";
import { Flag } from "../components/flag.tsx";

const head =
  "px-3 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400";
const cell = "px-3 py-2.5 align-top";

/** Users (PRODUCT.md D7): search by e-mail, username, name or id; open one for the detail. */
export function UsersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const [text, setText] = useState(q);
  const query = useQuery(userSearchQuery(q, page));

  const search = (event: FormEvent) => {
    event.preventDefault();
    setParams(text.trim() ? { q: text.trim() } : {}, { replace: true });
  };
  const setPage = (next: number) =>
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        updated.set("page", String(next));
        return updated;
      },
      { replace: true },
    );

  const rows = query.data?.data;
  return (
    <>
      <PageTitle title="Users" description="Search by e-mail, username, name or user id." />
      <search className="mb-4">
        <form onSubmit={search} className="flex gap-2">
          <label htmlFor="user-search" className="sr-only">
            Search users
          </label>
          <input
            id="user-search"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="ada@example.com, ada.lovelace, Lovelace or 42"
            maxLength={100}
            className="block w-full max-w-xl rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-xs focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40 dark:border-navy-600 dark:bg-navy-900"
          />
          <Button type="submit">Search</Button>
        </form>
      </search>
      <Card className="!p-0 overflow-hidden">
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2.5 text-xs text-slate-500 dark:border-navy-700 dark:text-slate-400">
          <span>{q ? `Results for “${q}”` : "Newest users"}</span>
          <span className="flex items-center gap-2">
            {query.isFetching ? <SpinnerIcon className="size-3.5" /> : null}
            {query.data ? `${query.data.pagination.total} in all` : null}
          </span>
        </div>
        {rows === undefined ? (
          query.isError ? (
            <FailureState
              title="The users could not be loaded"
              details={failureDetails(query.error)}
              onRetry={() => void query.refetch()}
              retrying={query.isFetching}
            />
          ) : (
            <p role="status" className="px-4 py-10 text-center text-sm text-slate-500">
              Loading...
            </p>
          )
        ) : rows.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-slate-500">No user matches.</p>
        ) : (
          <TableScroller label="Users" className="">
            <table className="w-full min-w-[48rem] text-sm">
              <caption className="sr-only">Users</caption>
              <thead className="border-b border-slate-200 dark:border-navy-700">
                <tr>
                  <th scope="col" className={head}>
                    User
                  </th>
                  <th scope="col" className={head}>
                    Status
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    Real balance
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    Practice
                  </th>
                  <th scope="col" className={head}>
                    Joined
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-navy-800">
                {rows.map((row) => (
                  <UserRow key={row.id} user={row} />
                ))}
              </tbody>
            </table>
          </TableScroller>
        )}
        <div className="px-4 pb-3">
          <Pagination
            current={page}
            last={query.data?.pagination.last_page ?? 1}
            onPage={setPage}
            label="User pages"
          />
        </div>
      </Card>
    </>
  );
}

function UserRow({ user }: { user: AdminUserSummary }) {
  return (
    <tr className="hover:bg-slate-50 dark:hover:bg-navy-800/60">
      <td className={cell}>
        <Link
          to={adminUserPath(user.id)}
          className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
        >
          {displayName(user.name, user.email)}
        </Link>
        <span className="ml-1.5 text-xs text-slate-500">#{user.id}</span>
        <div className="text-xs text-slate-600 dark:text-slate-400">
          {user.email} · {user.username}
        </div>
      </td>
      <td className={cell}>
        <div className="flex flex-wrap gap-1">
          {isStaffRole(user.role) ? <Flag on label={`Staff: ${user.role}`} /> : null}
          {user.closure ? (
            <Flag
              on={false}
              label={user.closure.status === "closed" ? "Account closed" : "Closing"}
            />
          ) : null}
          <Flag
            on={user.email_verified_at !== null}
            label={user.email_verified_at ? "E-mail verified" : "E-mail unverified"}
          />
          <Flag
            on={user.kyc_verified_at !== null}
            label={user.kyc_verified_at ? "ID verified" : "ID unverified"}
          />
        </div>
      </td>
      <td className={`${cell} text-right font-semibold tabular-nums`}>
        {formatUsd(user.account_balance)}
      </td>
      <td className={`${cell} text-right tabular-nums text-slate-600 dark:text-slate-400`}>
        {formatUsd(user.practice_balance)}
      </td>
      <td className={`${cell} whitespace-nowrap text-slate-600 dark:text-slate-400`}>
        {formatDateTime(user.created_at)}
      </td>
    </tr>
  );
}
