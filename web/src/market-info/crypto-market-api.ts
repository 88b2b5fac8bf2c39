import { useQuery } from "@tanstack/react-query";
import { type CryptoMarketData, cryptoMarketDataSchema } from "@tp/domain/market-info";
import { apiRequest } from "../api/client.ts";
import { marketInfoRetry } from "./market-info-retry.ts";

export const cryptoMarketQueryKey = ["crypto-market-data"] as const;
/** The server caches the provider's listing for 60 s; asking more often gains nothing. */
export const crypto_market_refresh_ms = 60_000;
/** SPEC §3 "Market data": the top coins; a screenful on a desktop. */
export const crypto_market_rows = 20;

/** GET /crypto-market-data?limit=N: the top coins by market capitalisation. */
export async function fetchCryptoMarket(signal?: AbortSignal): Promise<CryptoMarketData> {
  const reply = await apiRequest<unknown>(`/crypto-market-data?limit=${crypto_market_rows}`, {
    signal,
  });
  const parsed = cryptoMarketDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The crypto market reply does not match its schema");
  return parsed.data;
}

export function useCryptoMarket() {
  return useQuery({
    queryKey: cryptoMarketQueryKey,
    queryFn: ({ signal }) => fetchCryptoMarket(signal),
    refetchInterval: crypto_market_refresh_ms,
    staleTime: crypto_market_refresh_ms,
    retry: marketInfoRetry,
  });
}
