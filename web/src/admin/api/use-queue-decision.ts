import type { QueueKind } from "./queues.ts";
import { type ActionOutcome, useRunAdminAction } from "./use-run-admin-action.ts";

export type QueueDecision = "approve" | "reject";

/**
 * Staff decide on one queue item: POST /admin/{kind}/{id}/{approve|reject}, the outcome told
 * in a toast. After a success `onDecided` runs (the page moves on to the next item).
 */
export function useQueueDecision(kind: QueueKind, id: number, onDecided: () => void) {
  const run = useRunAdminAction();
  return async (
    decision: QueueDecision,
    body: Record<string, string> | undefined,
    fallback: { success: string; failure: string },
  ): Promise<ActionOutcome> => {
    const outcome = await run(
      { method: "POST", path: `/admin/${kind}/${id}/${decision}`, body },
      fallback,
    );
    if (outcome === true) onDecided();
    return outcome;
  };
}
