import type { MarketDataItem, NewsItem } from "@tp/domain/market-info";
import { z } from "zod";
import { describe } from "./blockchain-info.ts";
import { ProviderError } from "./provider-request.ts";

export const coinmarketcap_source = "CoinMarketCap";

/** Every CoinMarketCap Pro reply carries `status`; error_code 0 means success. */
const statusSchema = z.object({
  error_code: z.union([z.number(), z.string()]),
  error_message: z.string().nullable().optional(),
});

function checkStatus(raw: unknown): void {
  const status = statusSchema.safeParse((raw as { status?: unknown } | null)?.status);
  if (!status.success) {
    throw new ProviderError(`${coinmarketcap_source}: reply has no status object`);
  }
  if (Number(status.data.error_code) !== 0) {
    throw new ProviderError(
      `${coinmarketcap_source}: error ${status.data.error_code}: ${status.data.error_message ?? ""}`,
    );
  }
}

/**
 * GET /v1/cryptocurrency/listings/latest?start=1&limit=N&convert=USD: `data` is a list of
 * coins, each with id, name, symbol, circulating_supply, last_updated and quote.USD{price,
 * volume_24h, market_cap, percent_change_24h, …}. SPEC §3 "Market data" is this shape; we
 * pass those fields on and drop the rest.
 */
const nullableNumber = z.number().finite().nullable().optional();
const listingSchema = z.object({
  id: z.number().int(),
  name: z.string().min(1),
  symbol: z.string().min(1),
  circulating_supply: nullableNumber,
  last_updated: z.string().min(1),
  quote: z.object({
    USD: z.object({
      price: z.number().finite(),
      volume_24h: nullableNumber,
      market_cap: nullableNumber,
      percent_change_24h: nullableNumber,
    }),
  }),
});
const listingsReplySchema = z.object({ data: z.array(z.unknown()) });

export function parseListings(raw: unknown): MarketDataItem[] {
  checkStatus(raw);
  const reply = listingsReplySchema.safeParse(raw);
  if (!reply.success) {
    throw new ProviderError(
      `${coinmarketcap_source}: unexpected listings reply: ${describe(reply.error)}`,
    );
  }
  const items: MarketDataItem[] = [];
  for (const entry of reply.data.data) {
    const coin = listingSchema.safeParse(entry);
    // A coin without a USD price is left out rather than shown with a made-up one.
    if (!coin.success) continue;
    const { id, name, symbol, circulating_supply, last_updated, quote } = coin.data;
    items.push({
      id,
      name,
      symbol,
      circulating_supply: circulating_supply ?? null,
      last_updated,
      quote: {
        USD: {
          price: quote.USD.price,
          volume_24h: quote.USD.volume_24h ?? null,
          market_cap: quote.USD.market_cap ?? null,
          percent_change_24h: quote.USD.percent_change_24h ?? null,
        },
      },
    });
  }
  if (items.length === 0 && reply.data.data.length > 0) {
    throw new ProviderError(
      `${coinmarketcap_source}: no listing in the reply has the documented fields`,
    );
  }
  return items;
}

/**
 * GET /v1/content/latest?start=S&limit=L: `data` is a list of articles, each with `cover`
 * (image URL), `assets` [{id, name, symbol, slug}], `created_at`, `type` and `meta` {id,
 * title, subtitle, sourceName, sourceUrl, releasedAt, createdAt, language, …}. The meta
 * keys are camelCase in CoinMarketCap's documentation; snake_case spellings are accepted
 * too. An article missing its id, title, link or date is left out, never filled in.
 */
const text = z.string().trim().min(1);
const articleSchema = z.object({
  cover: z.string().nullable().optional(),
  assets: z
    .array(z.object({ name: text, symbol: text }).passthrough())
    .nullable()
    .optional(),
  created_at: z.string().nullable().optional(),
  meta: z
    .object({
      id: z.union([text, z.number()]),
      title: text,
      subtitle: z.string().nullable().optional(),
      sourceName: z.string().nullable().optional(),
      source_name: z.string().nullable().optional(),
      sourceUrl: z.string().nullable().optional(),
      source_url: z.string().nullable().optional(),
      releasedAt: z.string().nullable().optional(),
      released_at: z.string().nullable().optional(),
      createdAt: z.string().nullable().optional(),
      created_at: z.string().nullable().optional(),
    })
    .passthrough(),
});
const contentReplySchema = z.object({ data: z.array(z.unknown()) });

export function parseContentLatest(raw: unknown): NewsItem[] {
  checkStatus(raw);
  const reply = contentReplySchema.safeParse(raw);
  if (!reply.success) {
    throw new ProviderError(
      `${coinmarketcap_source}: unexpected content reply: ${describe(reply.error)}`,
    );
  }
  const items: NewsItem[] = [];
  for (const entry of reply.data.data) {
    const article = articleSchema.safeParse(entry);
    if (!article.success) continue;
    const { meta } = article.data;
    const url = webUrl(meta.sourceUrl ?? meta.source_url, ["http:", "https:"]);
    const published = isoTime(
      meta.releasedAt ??
        meta.released_at ??
        meta.createdAt ??
        meta.created_at ??
        article.data.created_at,
    );
    if (!url || !published) continue;
    items.push({
      id: String(meta.id),
      title: meta.title,
      subtitle: nonEmpty(meta.subtitle),
      source_name: nonEmpty(meta.sourceName ?? meta.source_name),
      url,
      cover_image_url: webUrl(article.data.cover, ["https:"]),
      published_at: published,
      assets: (article.data.assets ?? []).map((asset) => ({
        symbol: asset.symbol,
        name: asset.name,
      })),
    });
  }
  if (items.length === 0 && reply.data.data.length > 0) {
    throw new ProviderError(
      `${coinmarketcap_source}: no article in the reply has the documented fields`,
    );
  }
  return items;
}

function nonEmpty(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Only absolute http(s) links reach the page: no javascript:, data: or relative URLs. */
function webUrl(value: string | null | undefined, protocols: string[]): string | null {
  if (!value || !URL.canParse(value)) return null;
  const url = new URL(value);
  return protocols.includes(url.protocol) ? url.toString() : null;
}

function isoTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}
