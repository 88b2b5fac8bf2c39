import { useQuery } from "@tanstack/react-query";
import { tradeAuditDataSchema } from "@tp/domain/api";
import type { z } from "zod";
import { apiRequest } from "./client.ts";

export type TradeAudit = z.infer<typeof tradeAuditDataSchema>;

export function tradeAuditQueryKey(id: number) {
  return ["trade-audit", id] as const;
}

/** GET /trades/{id}: the trade with the ticks around its entry and its expiry (PRODUCT.md D1). */
export async function fetchTradeAudit(id: number, signal?: AbortSignal): Promise<TradeAudit> {
  const reply = await apiRequest<unknown>(`/trades/${id}`, { signal });
  const parsed = tradeAuditDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The trade audit reply does not match its schema");
  return parsed.data;
}

/** An open trade's exit side is still to come: it is read again until it settles. */
const open_trade_audit_refetch_ms = 5_000;

export function useTradeAudit(id: number) {
  return useQuery({
    queryKey: tradeAuditQueryKey(id),
    queryFn: ({ signal }) => fetchTradeAudit(id, signal),
    refetchInterval: (query) =>
      query.state.data?.trade.status === "open" ? open_trade_audit_refetch_ms : false,
  });
}
