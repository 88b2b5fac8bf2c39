import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "./client.ts";

/** POST /logout-all-sessions: revokes every session of the trader except this one. */
export async function logoutAllSessions() {
  return apiRequest("/logout-all-sessions", { method: "POST" });
}

export function useLogoutAllSessionsMutation() {
  return useMutation({ mutationFn: logoutAllSessions });
}
