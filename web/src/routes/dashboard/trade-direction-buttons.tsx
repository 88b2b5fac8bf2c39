/**
 * Call and Put: each checks the form and opens the next step of the trade. While the market
 * cannot be traded they are disabled and point (aria-describedby) at the line saying why.
 */
export function TradeDirectionButtons({
  onDirection,
  disabled,
  reasonId,
}: {
  onDirection: (type: "call" | "put") => void;
  disabled: boolean;
  /** The id of the element that says why they are disabled, when they are. */
  reasonId?: string;
}) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <button
        type="button"
        onClick={() => onDirection("call")}
        disabled={disabled}
        aria-describedby={reasonId}
        className="flex h-12 items-center justify-center gap-2 rounded-xl bg-emerald-600 text-base font-bold text-white shadow-sm transition-colors hover:bg-emerald-700 disabled:cursor-not-allowed disabled:opacity-50"
      >
        <span aria-hidden="true">▲</span>
        Call
      </button>
      <button
        type="button"
        onClick={() => onDirection("put")}
        disabled={disabled}
        aria-describedby={reasonId}
        className="flex h-12 items-center justify-center gap-2 rounded-xl bg-red-600 text-base font-bold text-white shadow-sm transition-colors hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-50"
      >
        <span aria-hidden="true">▼</span>
        Put
      </button>
    </div>
  );
}
