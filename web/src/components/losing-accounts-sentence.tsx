import { useRiskDisclosure } from "../api/risk-disclosure.ts";

/**
 * The risk warning's added sentence (issue 14 item 5): the share of real-money accounts
 * that lost money trading in the last 12 months, or that there is not yet enough data, as
 * the server states it. Nothing while it loads or when it cannot be read: never a figure
 * the server did not give.
 */
export function LosingAccountsSentence({ className }: { className?: string }) {
  const disclosure = useRiskDisclosure();
  if (!disclosure.data) return null;
  return <span className={className}>{disclosure.data.sentence}</span>;
}
