import { useApiHealth } from "../../api/health.ts";
import { useStreamStatus } from "../../stream/stream-context.ts";

type Connection = "Online" | "Connecting" | "Reconnecting" | "Offline";

const dots: Record<Connection, string> = {
  Online: "bg-emerald-400",
  Connecting: "bg-slate-400",
  Reconnecting: "bg-amber-400",
  Offline: "bg-red-500",
};

const explanations: Record<Connection, string> = {
  Online: "Live: prices, trades and balances arrive as they happen",
  Connecting: "Connecting to the live price stream",
  Reconnecting: "The live connection dropped: updating every 3 seconds until it is back",
  Offline: "The platform cannot be reached",
};

/**
 * Whether the live socket is connected (PRODUCT.md D10). While it is down the page polls,
 * which is still working (Reconnecting) as long as the API answers, else Offline.
 */
export function StatusIndicator() {
  const stream = useStreamStatus();
  const health = useApiHealth();
  const state: Connection =
    stream === "live"
      ? "Online"
      : health.data === false
        ? "Offline"
        : stream === "connecting"
          ? "Connecting"
          : "Reconnecting";
  return (
    <div className="flex flex-col leading-tight" title={explanations[state]}>
      <span className="text-[11px] uppercase tracking-wide text-navy-300">Status</span>
      <span
        role="status"
        aria-label={`Status: ${state}. ${explanations[state]}`}
        className="flex items-center gap-1.5 text-sm font-semibold text-white"
      >
        <span aria-hidden="true" className={`size-2 rounded-full ${dots[state]}`} />
        {state}
      </span>
    </div>
  );
}
