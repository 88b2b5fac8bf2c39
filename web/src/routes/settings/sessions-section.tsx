import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { uiMessages } from "@tp/domain/messages";
import { type ActiveSession, signInResultLabels } from "@tp/domain/sessions-api";
import { useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { useEndSessionMutation } from "../../api/end-session.ts";
import { useLogoutAllSessionsMutation } from "../../api/logout-all-sessions.ts";
import { sessionsQueryOptions } from "../../api/sessions.ts";
import { signInHistoryQueryOptions } from "../../api/sign-in-history.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ShieldIcon } from "../../components/icons.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { formatDateTime } from "../../components/trade-format.ts";
import { SectionHeading } from "./section-heading.tsx";

/**
 * The Security page's sessions (issue 12, item 5): every live session with where and when
 * it was used, each one endable (ending this one signs out), and the sign-in history.
 */
export function SessionsSection() {
  return (
    <>
      <Card aria-labelledby="sessions-title">
        <SectionHeading
          id="sessions-title"
          icon={<ShieldIcon className="size-5" />}
          title="Sessions"
          text="Where your account is signed in. End any session you do not recognise, then change your password."
        />
        <ActiveSessions />
      </Card>
      <Card aria-labelledby="sign-in-history-title">
        <SectionHeading
          id="sign-in-history-title"
          icon={<ShieldIcon className="size-5" />}
          title="Sign-in history"
          text="Every attempt to sign in to your account, newest first, whether it succeeded or not."
        />
        <SignInHistory />
      </Card>
    </>
  );
}

function ActiveSessions() {
  const sessions = useQuery({ ...sessionsQueryOptions(), refetchOnWindowFocus: true });
  const logoutOthers = useLogoutAllSessionsMutation();
  const onLogoutOthers = async () => {
    try {
      await logoutOthers.mutateAsync();
      toast.success(uiMessages.sessionsSuccess);
    } catch {
      toast.error(uiMessages.sessionsFailed);
    }
    void sessions.refetch();
  };

  return (
    <>
      {sessions.isError && sessions.data === undefined ? (
        <FailureState
          title={uiMessages.sessionsLoadFailed}
          details={failureDetails(sessions.error)}
          onRetry={() => void sessions.refetch()}
          retrying={sessions.isFetching}
        />
      ) : sessions.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          Loading...
        </p>
      ) : (
        <ul aria-label="Active sessions" className="grid gap-2">
          {sessions.data.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </ul>
      )}
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" onClick={onLogoutOthers} busy={logoutOthers.isPending}>
          Log out other sessions
        </Button>
      </div>
    </>
  );
}

function SessionRow({ session }: { session: ActiveSession }) {
  const { logout } = useAuth();
  const end = useEndSessionMutation();
  const onEnd = async () => {
    // This session: the ordinary sign-out, which also forgets the token here.
    if (session.current) {
      await logout();
      return;
    }
    try {
      await end.mutateAsync(session.id);
      toast.success(uiMessages.sessionEnded);
    } catch (error) {
      toast.error(errorMessage(error, uiMessages.sessionEndFailed));
    }
  };
  return (
    <li
      data-session={session.id}
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 p-3 text-sm dark:border-navy-700"
    >
      <div className="min-w-0">
        <p className="font-semibold text-slate-900 dark:text-white">
          {session.browser}
          {session.current ? (
            <span className="ml-2 rounded-full bg-emerald-600/10 px-2 py-0.5 text-xs font-semibold text-emerald-700 dark:text-emerald-400">
              This session
            </span>
          ) : null}
        </p>
        <p className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
          IP {session.ip ?? "unknown"} · signed in {formatDateTime(session.created_at)} · last seen{" "}
          {formatDateTime(session.last_seen_at)}
        </p>
      </div>
      <Button
        variant={session.current ? "secondary" : "danger"}
        size="sm"
        onClick={onEnd}
        busy={end.isPending}
        aria-label={
          session.current ? "Sign out of this session" : `End session on ${session.browser}`
        }
      >
        {session.current ? "Sign out" : "End session"}
      </Button>
    </li>
  );
}

function SignInHistory() {
  const [page, setPage] = useState(1);
  const history = useQuery({
    ...signInHistoryQueryOptions(page),
    placeholderData: keepPreviousData,
  });
  if (history.isError && history.data === undefined) {
    return (
      <FailureState
        title={uiMessages.signInHistoryLoadFailed}
        details={failureDetails(history.error)}
        onRetry={() => void history.refetch()}
        retrying={history.isFetching}
      />
    );
  }
  if (history.isPending) {
    return (
      <p role="status" className="text-sm text-slate-500">
        Loading...
      </p>
    );
  }
  return (
    <>
      <ul aria-label="Sign-in attempts" className="divide-y divide-slate-100 dark:divide-navy-800">
        {history.data.data.map((attempt) => (
          <li
            key={attempt.id}
            className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 py-2 text-sm tabular-nums"
          >
            <span className="text-slate-700 dark:text-slate-200">
              {formatDateTime(attempt.attempted_at)} · {attempt.browser} · IP {attempt.ip}
            </span>
            <span
              className={
                attempt.result === "succeeded"
                  ? "font-semibold text-emerald-700 dark:text-emerald-400"
                  : "font-semibold text-red-600 dark:text-red-400"
              }
            >
              {signInResultLabels[attempt.result]}
            </span>
          </li>
        ))}
      </ul>
      <Pagination
        label="Sign-in history pages"
        current={history.data.pagination.current_page}
        last={history.data.pagination.last_page}
        onPage={setPage}
      />
    </>
  );
}
