/**
 * PRODUCT.md D2: every view that shows prices says so while they come from the simulator.
 * The words are fixed by the decision; the title says what they mean.
 */
export function SimulatedPricesLabel({ compact = false }: { compact?: boolean }) {
  return (
    <span
      title="These prices come from the platform's simulator, not from a market. Practice trading only."
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full bg-amber-100 font-semibold text-amber-900 dark:bg-amber-400/15 dark:text-amber-300 ${
        compact ? "px-2 py-px text-[11px]" : "px-2.5 py-0.5 text-xs"
      }`}
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-amber-500" />
      Simulated prices
    </span>
  );
}
