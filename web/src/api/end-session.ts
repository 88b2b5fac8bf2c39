import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "./client.ts";
import { sessionsQueryKey } from "./sessions.ts";

/** DELETE /sessions/{id}: ends one of the trader's other sessions (its sockets close too). */
export async function endSession(id: number) {
  return apiRequest(`/sessions/${id}`, { method: "DELETE" });
}

export function useEndSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
