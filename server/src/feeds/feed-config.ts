import { assetCatalogue, type OptionType, optionTypes } from "@tp/domain/catalogue";
import { z } from "zod";
import { binance_ws_url_default } from "./binance-feed.ts";
import { binanceSymbols } from "./binance-symbols.ts";
import { finnhub_ws_url_default } from "./finnhub-feed.ts";
import { finnhubSymbols } from "./finnhub-symbols.ts";
import { simulated_tick_interval_ms_default } from "./simulated-feed.ts";
import type { FeedSource } from "./tick.ts";

/**
 * The feed settings, to be merged into the server's one config schema:
 *   z.object({ ...existingFields, ...feedConfigShape }).superRefine(refineFeedConfig)
 * Issues carry the variable's name as their path, so loadConfig's message names it.
 */

export const feedSources = ["simulated", "binance", "finnhub"] as const satisfies FeedSource[];

/** Which catalogue symbols each source can price. */
const pricedBy: Readonly<Record<FeedSource, ReadonlySet<string>>> = {
  simulated: new Set(assetCatalogue.map((asset) => asset.symbol)),
  binance: new Set(Object.keys(binanceSymbols)),
  finnhub: new Set(Object.keys(finnhubSymbols)),
};

/** Every catalogue symbol → the one source that prices it. */
export type FeedSourceBySymbol = Readonly<Record<string, FeedSource>>;

const sources_listed = feedSources.join(", ");

/**
 * FEED_SOURCES: comma-separated `key=source` entries. A key is `all`, an option type or a
 * catalogue symbol; the most specific wins whatever the order (symbol > type > all), and
 * anything unset is simulated. E.g. `crypto=binance,all=finnhub,EURUSD=simulated`.
 */
export function parseFeedSources(
  text: string,
): { ok: true; bySymbol: FeedSourceBySymbol } | { ok: false; error: string } {
  let everything: FeedSource = "simulated";
  const byType = new Map<OptionType, FeedSource>();
  const bySymbolSetting = new Map<string, FeedSource>();
  const seen = new Set<string>();
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue;
    const [rawKey = "", rawSource, ...extra] = entry.split("=");
    const key = rawKey.trim();
    const source = rawSource?.trim().toLowerCase();
    if (source === undefined || extra.length > 0) {
      return { ok: false, error: `"${entry.trim()}" must be key=source` };
    }
    if (!isFeedSource(source)) {
      return { ok: false, error: `unknown source "${source}" for ${key} (use ${sources_listed})` };
    }
    const lowerKey = key.toLowerCase();
    const upperKey = key.toUpperCase();
    const canonical =
      lowerKey === "all" || isOptionType(lowerKey)
        ? lowerKey
        : pricedBy.simulated.has(upperKey)
          ? upperKey
          : undefined;
    if (canonical === undefined) {
      return {
        ok: false,
        error: `unknown key "${key}" (use all, an option type: ${optionTypes.join(", ")}, or a catalogue symbol such as EURUSD)`,
      };
    }
    if (seen.has(canonical)) return { ok: false, error: `${canonical} is set twice` };
    seen.add(canonical);
    if (canonical === "all") everything = source;
    else if (isOptionType(canonical)) byType.set(canonical, source);
    else bySymbolSetting.set(canonical, source);
  }

  const bySymbol: Record<string, FeedSource> = {};
  const unpriceable = new Map<FeedSource, string[]>();
  for (const asset of assetCatalogue) {
    const source = bySymbolSetting.get(asset.symbol) ?? byType.get(asset.optionType) ?? everything;
    bySymbol[asset.symbol] = source;
    if (!pricedBy[source].has(asset.symbol)) {
      unpriceable.set(source, [...(unpriceable.get(source) ?? []), asset.symbol]);
    }
  }
  const [refused] = unpriceable;
  if (refused) {
    const [source, symbols] = refused;
    return {
      ok: false,
      error: `${source} cannot price ${symbols.join(", ")} (it carries ${[...pricedBy[source]].join(", ")})`,
    };
  }
  return { ok: true, bySymbol };
}

function isFeedSource(value: string): value is FeedSource {
  return (feedSources as readonly string[]).includes(value);
}

function isOptionType(value: string): value is OptionType {
  return (optionTypes as readonly string[]).includes(value);
}

/** The providers' REST bases, where their history APIs live (issue 11: backfill). */
export const binance_rest_url_default = "https://api.binance.com";
export const finnhub_rest_url_default = "https://finnhub.io";

const httpUrl = z
  .string()
  .refine(
    (value) => /^https?:\/\/[^/?#]/.test(value) && URL.canParse(value),
    "must be an http:// or https:// URL",
  );

const webSocketUrl = z
  .string()
  .refine(
    (value) => /^wss?:\/\/[^/?#]/.test(value) && URL.canParse(value),
    "must be a ws:// or wss:// URL",
  );

/** Issue 11: an entry price may be at most this old, from the tick's own time. */
export const entry_price_max_age_ms_default = 2_000;

/**
 * ENTRY_PRICE_MAX_AGE_MS: one number of milliseconds for every asset class, or
 * `key=ms` entries where a key is `all` or an option type (e.g. `all=2000,stocks=3000`).
 */
export function parseEntryPriceMaxAge(
  text: string,
): { ok: true; byType: Readonly<Record<OptionType, number>> } | { ok: false; error: string } {
  const parseMs = (value: string) => {
    const ms = Number(value.trim());
    return Number.isInteger(ms) && ms >= 250 && ms <= 60_000 ? ms : null;
  };
  const range = "a whole number of milliseconds from 250 to 60000";
  const byType = Object.fromEntries(
    optionTypes.map((type) => [type, entry_price_max_age_ms_default]),
  ) as Record<OptionType, number>;
  if (!text.includes("=")) {
    if (text.trim() === "") return { ok: true, byType };
    const ms = parseMs(text);
    if (ms === null) return { ok: false, error: `must be ${range}, or type=ms entries` };
    for (const type of optionTypes) byType[type] = ms;
    return { ok: true, byType };
  }
  const seen = new Set<string>();
  const entries = text.split(",").filter((entry) => entry.trim() !== "");
  // `all` first, so an option type's own entry wins whatever the order.
  entries.sort((a, b) => Number(b.trim().startsWith("all=")) - Number(a.trim().startsWith("all=")));
  for (const entry of entries) {
    const [rawKey = "", rawMs, ...extra] = entry.split("=");
    const key = rawKey.trim().toLowerCase();
    const ms = rawMs === undefined || extra.length > 0 ? null : parseMs(rawMs);
    if (key !== "all" && !isOptionType(key)) {
      return {
        ok: false,
        error: `unknown key "${rawKey.trim()}" (use all or ${optionTypes.join(", ")})`,
      };
    }
    if (ms === null) return { ok: false, error: `${key} must be ${range}` };
    if (seen.has(key)) return { ok: false, error: `${key} is set twice` };
    seen.add(key);
    if (key === "all") for (const type of optionTypes) byType[type] = ms;
    else byType[key as OptionType] = ms;
  }
  return { ok: true, byType };
}

export const feedConfigShape = {
  /** How old an entry price may be, per asset class (issue 11's feed-health guard). */
  ENTRY_PRICE_MAX_AGE_MS: z
    .string()
    .transform((text, context) => {
      const result = parseEntryPriceMaxAge(text);
      if (result.ok) return result.byType;
      context.addIssue({ code: "custom", message: result.error });
      return z.NEVER;
    })
    .prefault(""),
  /**
   * The simulator trades around the clock unless this is true; then its assets keep their
   * real markets' hours (domain/src/market-hours.ts). Labelled simulated either way.
   */
  SIMULATED_MARKET_HOURS: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .transform((value) => value === "true" || value === "1")
    .default(false),
  FEED_SOURCES: z
    .string()
    .transform((text, context) => {
      const result = parseFeedSources(text);
      if (result.ok) return result.bySymbol;
      context.addIssue({ code: "custom", message: result.error });
      return z.NEVER;
    })
    // Parsed like a value the operator typed: unset means everything simulated.
    .prefault(""),
  /** Finnhub's key. Never echoed: it has no format rule that could fail and be quoted. */
  FEED_API_KEY: z.string().min(1).optional(),
  BINANCE_WS_URL: webSocketUrl.default(binance_ws_url_default),
  FINNHUB_WS_URL: webSocketUrl.default(finnhub_ws_url_default),
  /** Binance's REST base: klines for the chart's history (no key). */
  BINANCE_REST_URL: httpUrl.default(binance_rest_url_default),
  /** Finnhub's REST base: candles for the chart's history (with FEED_API_KEY). */
  FINNHUB_REST_URL: httpUrl.default(finnhub_rest_url_default),
  SIMULATED_FEED_SEED: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(4_294_967_295, "must be at most 4294967295 (32 bits)")
    .default(1),
  SIMULATED_TICK_INTERVAL_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    // Faster than 20 ticks a second per asset only loads the stream; slower than a
    // minute would leave every asset stale ("Market closed").
    .min(50, "must be at least 50 ms")
    .max(60_000, "must be at most 60000 ms")
    .default(simulated_tick_interval_ms_default),
};

/** Cross-field rule: Finnhub needs the key. */
export function refineFeedConfig(
  config: { FEED_SOURCES: FeedSourceBySymbol; FEED_API_KEY?: string | undefined },
  context: z.RefinementCtx,
): void {
  // Defensive: the rule may run while FEED_SOURCES itself is invalid.
  if (typeof config.FEED_SOURCES !== "object" || config.FEED_SOURCES === null) return;
  const usesFinnhub = Object.values(config.FEED_SOURCES).includes("finnhub");
  if (usesFinnhub && !config.FEED_API_KEY) {
    context.addIssue({
      code: "custom",
      path: ["FEED_API_KEY"],
      message: "is required when FEED_SOURCES uses finnhub (the Finnhub API key)",
    });
  }
}

export const feedConfigSchema = z.object(feedConfigShape).superRefine(refineFeedConfig);

export type FeedConfig = z.infer<typeof feedConfigSchema>;
