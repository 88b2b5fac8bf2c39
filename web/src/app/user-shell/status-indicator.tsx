import { useApiHealth } from "../../api/health.ts";

/** Whether the platform's API answers right now (GET /health, polled). */
export function StatusIndicator() {
  const health = useApiHealth();
  const state = health.data === undefined ? "Checking" : health.data ? "Online" : "Offline";
  const dot =
    state === "Online" ? "bg-emerald-400" : state === "Offline" ? "bg-red-500" : "bg-slate-400";
  return (
    <div className="flex flex-col leading-tight">
      <span className="text-[11px] uppercase tracking-wide text-navy-300">Status</span>
      <span role="status" className="flex items-center gap-1.5 text-sm font-semibold text-white">
        <span aria-hidden="true" className={`size-2 rounded-full ${dot}`} />
        {state}
      </span>
    </div>
  );
}
