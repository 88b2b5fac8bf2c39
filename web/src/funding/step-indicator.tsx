/** Where the trader is in a funding flow: numbered steps, the current one marked. */
export function StepIndicator({
  label,
  steps,
  current,
}: {
  label: string;
  steps: readonly string[];
  current: number;
}) {
  return (
    <ol aria-label={label} className="mb-5 flex items-center gap-2 overflow-x-auto pb-1 text-xs">
      {steps.map((step, index) => {
        const state = index < current ? "done" : index === current ? "current" : "todo";
        return (
          <li
            key={step}
            aria-current={state === "current" ? "step" : undefined}
            className="flex shrink-0 items-center gap-2"
          >
            <span
              className={`flex size-6 items-center justify-center rounded-full font-bold ${
                state === "todo"
                  ? "bg-slate-200 text-slate-500 dark:bg-navy-800 dark:text-slate-400"
                  : state === "current"
                    ? "bg-brand-600 text-white"
                    : "bg-emerald-500 text-white"
              }`}
            >
              {index + 1}
            </span>
            <span
              className={`font-semibold ${
                state === "current"
                  ? "text-slate-900 dark:text-white"
                  : "hidden text-slate-500 sm:inline dark:text-slate-400"
              }`}
            >
              {step}
            </span>
            {index < steps.length - 1 ? (
              <span aria-hidden="true" className="h-px w-4 bg-slate-300 sm:w-8 dark:bg-navy-700" />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
