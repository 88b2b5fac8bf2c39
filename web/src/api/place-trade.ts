import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type TradeView, tradeViewSchema } from "@tp/domain/api";
import type { PlaceTradeRequest } from "@tp/domain/trade-form";
import { apiRequest } from "./client.ts";
import { upsertTrade } from "./trade-history.ts";
import { userQueryKey } from "./user.ts";

export interface PlacedTrade {
  trade: TradeView | null;
  message: string | null;
}

/**
 * A fresh idempotency key (PRODUCT.md D9). randomUUID needs a secure context; a page served
 * over plain http on a LAN address falls back to the same 122 random bits by hand.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * POST /place-trade. The key makes a retried request (a timeout, a double submit) place the
 * trade once: the server answers a replay with the first reply.
 */
export async function placeTrade(
  request: PlaceTradeRequest,
  idempotencyKey: string,
): Promise<PlacedTrade> {
  const reply = await apiRequest<{ trade?: unknown }>("/place-trade", {
    method: "POST",
    body: request,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  const parsed = tradeViewSchema.safeParse(reply.data?.trade);
  return { trade: parsed.success ? parsed.data : null, message: reply.message ?? null };
}

export function usePlaceTradeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      request,
      idempotencyKey,
    }: {
      request: PlaceTradeRequest;
      idempotencyKey: string;
    }) => placeTrade(request, idempotencyKey),
    onSuccess: async (placed) => {
      // The open trade shows at once, whether or not its socket event has arrived yet.
      if (placed.trade) upsertTrade(queryClient, placed.trade);
      // SPEC §4: user data is refetched after a trade.
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
