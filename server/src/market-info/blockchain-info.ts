import type { BlockchainStats } from "@tp/domain/market-info";
import { z } from "zod";
import { ProviderError } from "./provider-request.ts";

export const blockchain_info_source = "blockchain.com";

const satoshis_per_btc = 100_000_000;

const count = z.number().int().nonnegative();
const amount = z.number().finite().nonnegative();

/**
 * GET https://api.blockchain.info/stats, as blockchain.com documents it ("Blockchain Stats"
 * of its Charts & Statistics API): figures of the last 24 hours. Units as the provider
 * sends them: hash_rate in GH/s; n_btc_mined, total_fees_btc, totalbc, estimated_btc_sent
 * and total_btc_sent in satoshis; miners_revenue_btc and trade_volume_btc in BTC;
 * timestamp in epoch milliseconds. Other fields are ignored.
 */
const statsReplySchema = z.object({
  timestamp: z.number().finite().positive(),
  market_price_usd: amount,
  hash_rate: amount,
  difficulty: amount,
  minutes_between_blocks: amount,
  n_blocks_total: count,
  totalbc: amount,
  nextretarget: count,
  n_blocks_mined: count,
  n_btc_mined: amount,
  n_tx: count,
  total_fees_btc: amount,
  miners_revenue_usd: amount,
  miners_revenue_btc: amount,
  estimated_transaction_volume_usd: amount,
  estimated_btc_sent: amount,
  trade_volume_usd: amount,
  trade_volume_btc: amount,
});

/** The provider's reply → our reply; a reply not in that format is a ProviderError. */
export function parseBlockchainInfoStats(raw: unknown, fetchedAt: Date): BlockchainStats {
  const parsed = statsReplySchema.safeParse(raw);
  if (!parsed.success) {
    throw new ProviderError(
      `${blockchain_info_source}: unexpected stats reply: ${describe(parsed.error)}`,
    );
  }
  const stats = parsed.data;
  const asOf = new Date(stats.timestamp);
  if (Number.isNaN(asOf.getTime())) {
    throw new ProviderError(
      `${blockchain_info_source}: timestamp ${stats.timestamp} is not a time`,
    );
  }
  return {
    source: blockchain_info_source,
    fetched_at: fetchedAt.toISOString(),
    as_of: asOf.toISOString(),
    market_price_usd: stats.market_price_usd,
    hash_rate_hs: stats.hash_rate * 1e9,
    difficulty: stats.difficulty,
    minutes_between_blocks: stats.minutes_between_blocks,
    total_blocks: stats.n_blocks_total,
    total_btc: stats.totalbc / satoshis_per_btc,
    next_retarget_block: stats.nextretarget,
    blocks_mined_24h: stats.n_blocks_mined,
    btc_mined_24h: stats.n_btc_mined / satoshis_per_btc,
    transactions_24h: stats.n_tx,
    total_fees_btc_24h: stats.total_fees_btc / satoshis_per_btc,
    miners_revenue_usd_24h: stats.miners_revenue_usd,
    miners_revenue_btc_24h: stats.miners_revenue_btc,
    estimated_transaction_volume_usd_24h: stats.estimated_transaction_volume_usd,
    estimated_btc_sent_24h: stats.estimated_btc_sent / satoshis_per_btc,
    trade_volume_usd_24h: stats.trade_volume_usd,
    trade_volume_btc_24h: stats.trade_volume_btc,
  };
}

export function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(reply)"}: ${issue.message}`)
    .join("; ");
}
