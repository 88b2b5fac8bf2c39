import { useQuery } from "@tanstack/react-query";
import { apiReachable } from "./client.ts";

export const healthQueryKey = ["health"] as const;

/** How often the status indicator asks whether the API answers. */
export const health_poll_ms = 30_000;

/** GET /health: true when the API answers with a 2xx. Never throws. */
export async function fetchHealth(signal?: AbortSignal): Promise<boolean> {
  return apiReachable("/health", signal);
}

export function useApiHealth() {
  return useQuery({
    queryKey: healthQueryKey,
    queryFn: ({ signal }) => fetchHealth(signal),
    refetchInterval: health_poll_ms,
    retry: false,
  });
}
