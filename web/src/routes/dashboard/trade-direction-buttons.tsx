/** Call and Put: each checks the form and opens the next step of the trade. */
export function TradeDirectionButtons({
  onDirection,
  disabled,
}: {
  onDirection: (type: "call" | "put") => void;
  disabled: boolean;
}) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <button
        type="button"
        onClick={() => onDirection("call")}
        disabled={disabled}
        className="flex h-12 items-center justify-center gap-2 rounded-xl bg-emerald-600 text-base font-bold text-white shadow-sm transition-colors hover:bg-emerald-700 disabled:opacity-60"
      >
        <span aria-hidden="true">▲</span>
        Call
      </button>
      <button
        type="button"
        onClick={() => onDirection("put")}
        disabled={disabled}
        className="flex h-12 items-center justify-center gap-2 rounded-xl bg-red-600 text-base font-bold text-white shadow-sm transition-colors hover:bg-red-700 disabled:opacity-60"
      >
        <span aria-hidden="true">▼</span>
        Put
      </button>
    </div>
  );
}
