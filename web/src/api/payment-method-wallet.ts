import { coinPriceSchema, type WalletData } from "@tp/domain/funding";
import { apiRequest } from "./client.ts";

/**
 * GET /payment-methods/{id}/wallet: the address to pay to and its instruction lines. A reply
 * without an address gives wallet_address "" so the deposit flow can say "Wallet address
 * not available" (SPEC §8) rather than fail on the shape.
 */
export async function fetchWallet(methodId: string, signal?: AbortSignal): Promise<WalletData> {
  const reply = await apiRequest<Partial<WalletData>>(
    `/payment-methods/${encodeURIComponent(methodId)}/wallet`,
    { signal },
  );
  const data = reply.data ?? {};
  return {
    payment_method_id:
      typeof data.payment_method_id === "string" ? data.payment_method_id : methodId,
    name: typeof data.name === "string" ? data.name : "",
    wallet_address: typeof data.wallet_address === "string" ? data.wallet_address.trim() : "",
    instructions: Array.isArray(data.instructions)
      ? data.instructions.filter((line): line is string => typeof line === "string")
      : [],
    // Only a well-formed live price is used: anything else shows the dollar amount only.
    coin_price: coinPriceSchema.safeParse(data.coin_price).data ?? null,
  };
}
