import { useQuery } from "@tanstack/react-query";
import {
  type AdminUserDetail,
  admin_user_detail_rows_max,
  adminMessages,
} from "@tp/domain/admin-api";
import type { TradeView } from "@tp/domain/api";
import { isStaffRole } from "@tp/domain/api";
import { browserLabel } from "@tp/domain/browser-label";
import { idTypeLabels, type VerificationView } from "@tp/domain/funding";
import { formatUsd } from "@tp/domain/money";
import { signInResultLabels } from "@tp/domain/sessions-api";
import { type ReactNode, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import {
  formatProfitLoss,
  profitLossTone,
  tradeStatusLabel,
} from "../../components/trade-format.ts";
import { paths } from "../../paths.ts";
import { verificationFilePath } from "../api/queues.ts";
import { useRunAdminAction } from "../api/use-run-admin-action.ts";
import {
  revokeAllSessionsPath,
  revokeSessionPath,
  userDetailQuery,
  userSignInHistoryQuery,
} from "../api/users.ts";
import { displayName, formatDateTime, humanizeKey } from "../components/admin-format.ts";
import { ConfirmDialog } from "../components/decision-dialogs.tsx";
import { FilePreview } from "../components/file-preview.tsx";
import { Flag } from "../components/flag.tsx";
import { PortalModal } from "../components/portal-modal.tsx";
import { type Column, SimpleTable } from "../components/simple-table.tsx";
import { StatusBadge } from "../components/status-badge.tsx";
import { useStaffCan } from "../use-staff-role.ts";

type Detail = AdminUserDetail;
type Session = Detail["sessions"][number];
type LedgerLine = Detail["ledger"][number];

const tabs = [
  "ledger",
  "trades",
  "deposits",
  "withdrawals",
  "documents",
  "sessions",
] as const satisfies readonly string[];
type Tab = (typeof tabs)[number];

function signedUsd(amount: number): string {
  if (amount > 0) return `+${formatUsd(amount)}`;
  if (amount < 0) return `-${formatUsd(-amount)}`;
  return formatUsd(0);
}

const amountTone = (amount: number) =>
  amount > 0
    ? "text-emerald-700 dark:text-emerald-400"
    : amount < 0
      ? "text-red-700 dark:text-red-400"
      : "";

/** One user (PRODUCT.md D7): balances, ledger, trades, funding, documents and sessions. */
export function UserDetailPage() {
  const id = Number.parseInt(useParams().id ?? "", 10);
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useQuery({ ...userDetailQuery(valid ? id : 0), enabled: valid });

  if (!valid) return <p className="text-sm text-red-700">Unknown user.</p>;
  if (query.isLoading) return <LoadingScreen />;
  if (!query.data) {
    return (
      <div>
        <BackLink />
        <FailureState
          title="The user could not be loaded"
          details={failureDetails(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </div>
    );
  }
  return <UserDetail detail={query.data} />;
}

function BackLink() {
  return (
    <Link
      to={paths.admin.users}
      className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
    >
      ← Users
    </Link>
  );
}

function Stat({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 dark:border-navy-700 dark:bg-navy-900">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {label}
      </p>
      <p className="mt-1 text-lg font-bold tabular-nums">{value}</p>
      {note ? <p className="text-xs text-slate-500 dark:text-slate-400">{note}</p> : null}
    </div>
  );
}

/**
 * What stops the trader's real money now, in plain words at the top of the page: their
 * country's restriction and a time-out, self-exclusion or closure in force.
 */
function restrictionLines(restrictions: Detail["restrictions"]): string[] {
  const lines: string[] = [];
  if (restrictions.country) lines.push(restrictions.country);
  const exclusion = restrictions.exclusion;
  if (exclusion?.kind === "closure") {
    lines.push("Account closing: trading and deposits blocked for good");
  } else if (exclusion) {
    const what = exclusion.kind === "time_out" ? "On a time-out" : "Self-excluded";
    lines.push(`${what} until ${formatDateTime(exclusion.ends_at)}`);
  }
  return lines;
}

function Restrictions({ restrictions }: { restrictions: Detail["restrictions"] }) {
  const lines = restrictionLines(restrictions);
  if (lines.length === 0) return null;
  return (
    <section
      aria-label="Restrictions"
      className="mb-6 rounded-xl border border-red-300 bg-red-50 p-4 text-sm font-semibold text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <ul className="space-y-1">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}

function UserDetail({ detail }: { detail: Detail }) {
  const { user } = detail;
  const [params, setParams] = useSearchParams();
  const tab: Tab = tabs.includes(params.get("tab") as Tab) ? (params.get("tab") as Tab) : "ledger";
  const counts: Record<Tab, number> = {
    ledger: detail.ledger.length,
    trades: detail.trades.length,
    deposits: detail.deposits.length,
    withdrawals: detail.withdrawals.length,
    documents: detail.verifications.length,
    sessions: detail.sessions.filter((session) => sessionState(session) === "Active").length,
  };
  return (
    <>
      <BackLink />
      <div className="mt-2">
        <PageTitle
          title={displayName(user.name, user.email)}
          description={
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span>#{user.id}</span>
              <span>{user.email}</span>
              <span>{user.username}</span>
              {isStaffRole(user.role) ? <Flag on label={`Staff: ${user.role}`} /> : null}
              {user.closure ? (
                <Flag
                  on={false}
                  label={
                    user.closure.status === "closed"
                      ? `Account closed ${formatDateTime(user.closure.closed_at!)}`
                      : `Closing since ${formatDateTime(user.closure.requested_at)}: trading and deposits stopped`
                  }
                />
              ) : null}
            </span>
          }
        />
      </div>
      <Restrictions restrictions={detail.restrictions} />
      <div className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Real balance" value={formatUsd(user.account_balance)} />
        <Stat label="Practice balance" value={formatUsd(user.practice_balance)} />
        <Stat
          label="E-mail"
          value={user.email_verified_at ? "Verified" : "Unverified"}
          note={user.email_verified_at ? formatDateTime(user.email_verified_at) : undefined}
        />
        <Stat
          label="Identity"
          value={user.kyc_verified_at ? "Verified" : "Unverified"}
          note={user.kyc_verified_at ? formatDateTime(user.kyc_verified_at) : undefined}
        />
      </div>
      <Card className="mb-6">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
          {(
            [
              ["Country", user.country || "—"],
              ["Phone", user.phone_number || "—"],
              ["Plan", user.plan],
              ["Joined", formatDateTime(user.created_at)],
            ] as const
          ).map(([term, value]) => (
            <div key={term}>
              <dt className="text-xs text-slate-500 dark:text-slate-400">{term}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card className="!p-0">
        <div
          role="tablist"
          aria-label="User records"
          className="flex gap-1 overflow-x-auto border-b border-slate-200 px-3 pt-2 dark:border-navy-700"
        >
          {tabs.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`tab-${name}`}
              aria-selected={tab === name}
              aria-controls={`panel-${name}`}
              onClick={() =>
                setParams(
                  (previous) => {
                    const next = new URLSearchParams(previous);
                    next.set("tab", name);
                    return next;
                  },
                  { replace: true },
                )
              }
              className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-semibold transition-colors ${
                tab === name
                  ? "border-brand-600 text-brand-700 dark:text-brand-300"
                  : "border-transparent text-slate-500 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
              }`}
            >
              {humanizeKey(name)}
              <span className="ml-1.5 rounded-full bg-slate-100 px-1.5 text-xs text-slate-600 dark:bg-navy-800 dark:text-slate-300">
                {counts[name]}
              </span>
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="p-3">
          {tab === "ledger" ? <LedgerTable lines={detail.ledger} /> : null}
          {tab === "trades" ? <TradesList trades={detail.trades} /> : null}
          {tab === "deposits" ? <DepositsList deposits={detail.deposits} /> : null}
          {tab === "withdrawals" ? <WithdrawalsList withdrawals={detail.withdrawals} /> : null}
          {tab === "documents" ? <DocumentsList documents={detail.verifications} /> : null}
          {tab === "sessions" ? <SessionsList userId={user.id} sessions={detail.sessions} /> : null}
        </div>
      </Card>
      <p className="mt-2 text-xs text-slate-500">
        Each list shows the newest {admin_user_detail_rows_max} records.
      </p>
    </>
  );
}

const ledgerColumns: Array<Column<LedgerLine>> = [
  { header: "When", cell: (line) => formatDateTime(line.created_at), nowrap: true },
  { header: "Kind", cell: (line) => humanizeKey(line.kind) },
  { header: "Account", cell: (line) => humanizeKey(line.account) },
  { header: "Reference", cell: (line) => <code className="text-xs">{line.reference}</code> },
  {
    header: "Amount",
    align: "right",
    nowrap: true,
    cell: (line) => (
      <span className={`font-semibold ${amountTone(line.amount)}`}>{signedUsd(line.amount)}</span>
    ),
  },
];

function LedgerTable({ lines }: { lines: LedgerLine[] }) {
  return (
    <SimpleTable
      caption="Ledger entries"
      columns={ledgerColumns}
      rows={lines}
      rowKey={(line) => `${line.entry_id}-${line.account}`}
      emptyText="No ledger entries."
    />
  );
}

const tradeColumns: Array<Column<TradeView>> = [
  { header: "Opened", cell: (trade) => formatDateTime(trade.start_time), nowrap: true },
  { header: "Trade", cell: (trade) => `#${trade.id} ${trade.asset} ${trade.type}`, nowrap: true },
  { header: "Account", cell: (trade) => (trade.is_practice ? "Practice" : "Real") },
  { header: "Stake", align: "right", nowrap: true, cell: (trade) => formatUsd(trade.amount) },
  {
    header: "Result",
    align: "right",
    nowrap: true,
    cell: (trade) => (
      <span className={profitLossTone(trade.profit_loss)}>
        {formatProfitLoss(trade.profit_loss)}
      </span>
    ),
  },
  { header: "Status", cell: (trade) => tradeStatusLabel(trade.status) },
];

function TradesList({ trades }: { trades: TradeView[] }) {
  return (
    <SimpleTable
      caption="Trades"
      columns={tradeColumns}
      rows={trades}
      rowKey={(trade) => trade.id}
      emptyText="No trades."
    />
  );
}

function DepositsList({ deposits }: { deposits: Detail["deposits"] }) {
  return (
    <SimpleTable
      caption="Deposits"
      rows={deposits}
      rowKey={(deposit) => deposit.id}
      emptyText="No deposits."
      columns={[
        { header: "Created", cell: (row) => formatDateTime(row.created_at), nowrap: true },
        { header: "Deposit", cell: (row) => `#${row.id} · ${row.method}` },
        { header: "Amount", align: "right", nowrap: true, cell: (row) => formatUsd(row.amount) },
        { header: "Status", cell: (row) => <StatusBadge status={row.status} /> },
        { header: "Note", cell: (row) => row.rejection_reason ?? "" },
      ]}
    />
  );
}

function WithdrawalsList({ withdrawals }: { withdrawals: Detail["withdrawals"] }) {
  return (
    <SimpleTable
      caption="Withdrawals"
      rows={withdrawals}
      rowKey={(withdrawal) => withdrawal.id}
      emptyText="No withdrawals."
      columns={[
        { header: "Requested", cell: (row) => formatDateTime(row.created_at), nowrap: true },
        { header: "Withdrawal", cell: (row) => `#${row.id} · ${row.method}` },
        { header: "Amount", align: "right", nowrap: true, cell: (row) => formatUsd(row.amount) },
        { header: "Status", cell: (row) => <StatusBadge status={row.status} /> },
        { header: "Note", cell: (row) => row.payout_reference ?? row.rejection_reason ?? "" },
      ]}
    />
  );
}

function DocumentsList({ documents }: { documents: VerificationView[] }) {
  const [viewing, setViewing] = useState<VerificationView | null>(null);
  return (
    <>
      <SimpleTable
        caption="Identity documents"
        rows={documents}
        rowKey={(document) => document.id}
        emptyText="No identity documents."
        columns={[
          { header: "Uploaded", cell: (row) => formatDateTime(row.created_at), nowrap: true },
          {
            header: "Document",
            cell: (row) => `#${row.id} · ${row.id_type ? idTypeLabels[row.id_type] : "ID"}`,
          },
          { header: "Status", cell: (row) => <StatusBadge status={row.status} /> },
          { header: "Note", cell: (row) => row.rejection_reason ?? "" },
          {
            header: "File",
            cell: (row) => (
              <Button variant="secondary" size="sm" onClick={() => setViewing(row)}>
                View
              </Button>
            ),
          },
        ]}
      />
      {viewing ? (
        <PortalModal title={`Document #${viewing.id}`} size="lg" onClose={() => setViewing(null)}>
          <FilePreview
            path={verificationFilePath(viewing.id)}
            contentType={viewing.content_type}
            label={`Identity document #${viewing.id}`}
            downloadName={`identity-${viewing.id}`}
          />
        </PortalModal>
      ) : null}
    </>
  );
}

function sessionState(session: Session, now = Date.now()): "Active" | "Revoked" | "Expired" {
  if (session.revoked_at) return "Revoked";
  return new Date(session.expires_at).getTime() <= now ? "Expired" : "Active";
}

function SessionsList({ userId, sessions }: { userId: number; sessions: Session[] }) {
  const run = useRunAdminAction();
  const [revoking, setRevoking] = useState<number | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const active = sessions.filter((session) => sessionState(session) === "Active").length;
  // Revoking sessions is an admin's (the server refuses anyone else with 403).
  const canRevoke = useStaffCan("admin");

  const revoke = async (sessionId: number) => {
    setRevoking(sessionId);
    await run(
      { method: "POST", path: revokeSessionPath(userId, sessionId) },
      { success: adminMessages.sessionRevoked, failure: "The session could not be revoked" },
    ).finally(() => setRevoking(null));
  };

  return (
    <>
      {canRevoke ? (
        <div className="mb-2 flex justify-end">
          <Button
            variant="danger"
            size="sm"
            disabled={active === 0}
            onClick={() => setConfirmAll(true)}
          >
            Revoke all sessions
          </Button>
        </div>
      ) : null}
      <SimpleTable
        caption="Sessions"
        rows={sessions}
        rowKey={(session) => session.id}
        emptyText="No sessions."
        minWidthClass="min-w-[48rem]"
        columns={[
          { header: "Started", cell: (row) => formatDateTime(row.created_at), nowrap: true },
          { header: "Last seen", cell: (row) => formatDateTime(row.last_seen_at), nowrap: true },
          { header: "Address", cell: (row) => row.ip ?? "—", nowrap: true },
          {
            header: "Browser",
            cell: (row) => (
              <span
                title={row.user_agent ?? undefined}
                className="line-clamp-2 text-xs text-slate-600 dark:text-slate-400"
              >
                {row.user_agent ? browserLabel(row.user_agent) : "—"}
              </span>
            ),
          },
          {
            header: "State",
            nowrap: true,
            cell: (row) => {
              const state = sessionState(row);
              return state === "Active" && canRevoke ? (
                <Button
                  variant="secondary"
                  size="sm"
                  busy={revoking === row.id}
                  aria-label={`Revoke session ${row.id}`}
                  onClick={() => revoke(row.id)}
                >
                  Revoke
                </Button>
              ) : (
                <span className="text-slate-500">
                  {state} {state === "Revoked" ? formatDateTime(row.revoked_at) : ""}
                </span>
              );
            },
          },
        ]}
      />
      {confirmAll ? (
        <ConfirmDialog
          title="Revoke all sessions?"
          confirmLabel="Revoke all"
          variant="danger"
          onConfirm={() =>
            run(
              { method: "POST", path: revokeAllSessionsPath(userId) },
              {
                success: adminMessages.sessionsRevoked,
                failure: "The sessions could not be revoked",
              },
            )
          }
          onClose={() => setConfirmAll(false)}
        >
          <p>The user is signed out on every device and must sign in again.</p>
        </ConfirmDialog>
      ) : null}
      <SignInHistory userId={userId} />
    </>
  );
}

/** The user's sign-in attempts (issue 12, item 5): what the trader sees on their Security page. */
function SignInHistory({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const history = useQuery(userSignInHistoryQuery(userId, page));
  return (
    <section aria-labelledby="sign-in-history-title" className="mt-6">
      <h3 id="sign-in-history-title" className="mb-2 text-sm font-semibold">
        Sign-in history
      </h3>
      {history.isError && history.data === undefined ? (
        <FailureState
          title="The sign-in history could not be loaded"
          details={failureDetails(history.error)}
          onRetry={() => void history.refetch()}
          retrying={history.isFetching}
        />
      ) : history.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          Loading...
        </p>
      ) : (
        <>
          <SimpleTable
            caption="Sign-in attempts"
            rows={history.data.data}
            rowKey={(attempt) => attempt.id}
            emptyText="No sign-in attempts."
            minWidthClass="min-w-[40rem]"
            columns={[
              { header: "Time", cell: (row) => formatDateTime(row.attempted_at), nowrap: true },
              { header: "Address", cell: (row) => row.ip, nowrap: true },
              { header: "Browser", cell: (row) => row.browser },
              { header: "Result", cell: (row) => signInResultLabels[row.result], nowrap: true },
            ]}
          />
          <Pagination
            label="Sign-in history pages"
            current={history.data.pagination.current_page}
            last={history.data.pagination.last_page}
            onPage={setPage}
          />
        </>
      )}
    </section>
  );
}
