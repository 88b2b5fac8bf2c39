import { useQuery } from "@tanstack/react-query";
import {
  type BlockchainStats,
  blockchain_stats_refresh_ms,
  blockchainStatsSchema,
} from "@tp/domain/market-info";
import { apiRequest } from "../api/client.ts";
import { marketInfoRetry } from "./market-info-retry.ts";

export const blockchainStatsQueryKey = ["blockchain-stats"] as const;

/** GET /blockchain-stats (SPEC §7): Bitcoin network statistics from the server's provider. */
export async function fetchBlockchainStats(signal?: AbortSignal): Promise<BlockchainStats> {
  const reply = await apiRequest<unknown>("/blockchain-stats", { signal });
  const parsed = blockchainStatsSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The blockchain stats reply does not match its schema");
  return parsed.data;
}

/** Polled every 30 s while the page is open (SPEC §7, §9), also after a failure. */
export function useBlockchainStats() {
  return useQuery({
    queryKey: blockchainStatsQueryKey,
    queryFn: ({ signal }) => fetchBlockchainStats(signal),
    refetchInterval: blockchain_stats_refresh_ms,
    staleTime: blockchain_stats_refresh_ms,
    retry: marketInfoRetry,
  });
}
