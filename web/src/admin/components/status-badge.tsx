import { statusLabel, statusTone } from "./admin-format.ts";

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${statusTone(status)}`}
    >
      {statusLabel(status)}
    </span>
  );
}
