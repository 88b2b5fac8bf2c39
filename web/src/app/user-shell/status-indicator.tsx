import type { UserView } from "@tp/domain/api";
import { stateMessages } from "@tp/domain/messages";
import { useApiHealth } from "../../api/health.ts";
import { type RequestHealth, useRequestHealth } from "../../api/request-health.ts";
import { AccountStatusExplained } from "../../components/account-status.tsx";
import type { StreamStatus } from "../../stream/live-stream.ts";
import { useStreamStatus } from "../../stream/stream-context.ts";

export type Connection =
  | "Online"
  | "Connecting"
  | "Reconnecting"
  | "Connection problem"
  | "Offline";

const dots: Record<Connection, string> = {
  Online: "bg-emerald-400",
  Connecting: "bg-slate-400",
  Reconnecting: "bg-amber-400",
  "Connection problem": "bg-amber-400",
  Offline: "bg-red-500",
};

const explanations: Record<Exclude<Connection, "Connection problem">, string> = {
  Online: "Live: prices, trades and balances arrive as they happen",
  Connecting: "Connecting to the live price stream",
  Reconnecting: "The live connection dropped: updating every 3 seconds until it is back",
  Offline: stateMessages.apiUnreachable,
};

/**
 * The connection state and its reason, from three witnesses (issue 13): the live socket
 * (PRODUCT.md D10), the app's own recent requests, and the periodic GET /health. A socket
 * that is up does not make the platform Online while the API's answers are failing.
 */
export function connectionOf(
  stream: StreamStatus,
  requests: RequestHealth,
  healthAnswers: boolean | undefined,
): { state: Connection; reason: string } {
  if (healthAnswers === false || requests.failure === "unreachable") {
    return { state: "Offline", reason: explanations.Offline };
  }
  if (requests.failure === "server_error") {
    const status = requests.lastStatus === null ? "" : ` (HTTP ${requests.lastStatus})`;
    return {
      state: "Connection problem",
      reason: `${stateMessages.apiFailing}${status}: some data may be missing or out of date`,
    };
  }
  const state: Connection =
    stream === "live" ? "Online" : stream === "connecting" ? "Connecting" : "Reconnecting";
  return { state, reason: explanations[state] };
}

/** The top bar's connection state, beside the account status. */
export function ConnectionIndicator({ tone = "dark" }: { tone?: "dark" | "light" }) {
  const stream = useStreamStatus();
  const requests = useRequestHealth();
  const health = useApiHealth();
  const { state, reason } = connectionOf(stream, requests, health.data);
  return (
    <div className="flex flex-col leading-tight" title={reason}>
      <span
        className={`text-[11px] uppercase tracking-wide ${
          tone === "dark" ? "text-navy-300" : "text-slate-500 dark:text-slate-400"
        }`}
      >
        Connection
      </span>
      <span
        role="status"
        aria-label={`Connection: ${state}. ${reason}`}
        data-connection={state}
        className={`flex items-center gap-1.5 whitespace-nowrap text-sm font-semibold ${
          tone === "dark" ? "text-white" : "text-slate-900 dark:text-white"
        }`}
      >
        <span aria-hidden="true" className={`size-2 rounded-full ${dots[state]}`} />
        {state}
      </span>
    </div>
  );
}

/** SPEC §2's Status indicator: the account status (SPEC §4), explaining itself. */
export function AccountStatusIndicator({ user }: { user: UserView }) {
  return (
    <div className="flex flex-col leading-tight">
      <span className="text-[11px] uppercase tracking-wide text-navy-300">Status</span>
      <span className="text-sm text-white">
        <AccountStatusExplained user={user} compact />
      </span>
    </div>
  );
}
