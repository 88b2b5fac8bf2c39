import { useCallback } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { type AdminAction, useAdminAction } from "./admin-request.ts";

export type ActionOutcome = true | { error: unknown };

/**
 * Runs a staff action and tells the outcome in a toast: the server's own message when it
 * sent one (success or a 4xx such as "This deposit is not under review"), else `fallback`.
 */
export function useRunAdminAction() {
  const { mutateAsync } = useAdminAction();
  return useCallback(
    async (
      action: AdminAction,
      fallback: { success: string; failure: string },
    ): Promise<ActionOutcome> => {
      try {
        const reply = await mutateAsync(action);
        toast.success(reply.message ?? fallback.success);
        return true;
      } catch (error) {
        toast.error(errorMessage(error, fallback.failure));
        return { error };
      }
    },
    [mutateAsync],
  );
}
