import { apiSuccessSchema } from "@tp/domain/api";
import {
  blockchainStatsSchema,
  crypto_market_limit_default,
  crypto_market_limit_max,
  cryptoMarketDataSchema,
  cryptoNewsPageSchema,
  marketInfoMessages,
  marketInfoProvidersSchema,
  news_page_max,
} from "@tp/domain/market-info";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { AppError, notFound } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { CircuitOpenError } from "./circuit-breaker.ts";
import { marketInfoProvidersOf } from "./market-info-config.ts";
import { createMarketInfo, type MarketInfo } from "./market-info-service.ts";
import { ProviderError } from "./provider-request.ts";

const newsQuerySchema = z.object({
  page: z.coerce
    .number({ error: `page must be a whole number from 1 to ${news_page_max}` })
    .int(`page must be a whole number from 1 to ${news_page_max}`)
    .min(1, `page must be a whole number from 1 to ${news_page_max}`)
    .max(news_page_max, `page must be a whole number from 1 to ${news_page_max}`)
    .default(1),
});

const marketQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${crypto_market_limit_max}` })
    .int(`limit must be a whole number from 1 to ${crypto_market_limit_max}`)
    .min(1, `limit must be a whole number from 1 to ${crypto_market_limit_max}`)
    .max(
      crypto_market_limit_max,
      `limit must be a whole number from 1 to ${crypto_market_limit_max}`,
    )
    .default(crypto_market_limit_default),
});

/**
 * Provider failures become 503 PROVIDER_UNAVAILABLE with a plain message (and Retry-After
 * while the circuit is open); the provider's detail goes to the log only. Anything else is
 * a bug and stays a 500.
 */
async function fromProvider<T>(
  load: () => Promise<T>,
  message: string,
  log: FastifyBaseLogger,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof CircuitOpenError) {
      log.info({ reason: error.message }, "provider circuit open");
      throw new AppError("PROVIDER_UNAVAILABLE", message, {
        headers: { "retry-after": String(Math.max(1, Math.ceil(error.retryInMs / 1000))) },
      });
    }
    if (error instanceof ProviderError) {
      log.warn({ reason: error.message }, "provider failed");
      throw new AppError("PROVIDER_UNAVAILABLE", message);
    }
    throw error;
  }
}

/**
 * One service per application: the signed-in routes and the public logo route share its
 * caches and circuit breakers (the logo check reads the same cached listing).
 */
const services = new WeakMap<AppContext, MarketInfo>();
function marketInfoOf(context: AppContext, log: FastifyBaseLogger): MarketInfo {
  let service = services.get(context);
  if (!service) {
    service = createMarketInfo({ config: context.config, clock: context.clock, log });
    services.set(context, service);
  }
  return service;
}

/** A provider that is not set up is not asked at all: its page is hidden in the web app. */
function requireProvider(configured: boolean, message: string): void {
  if (!configured) throw new AppError("PROVIDER_UNAVAILABLE", message);
}

const coinImageParamsSchema = z.object({
  id: z.coerce
    .number({ error: "id must be a coin id" })
    .int("id must be a coin id")
    .min(1, "id must be a coin id")
    .max(2_147_483_647, "id must be a coin id"),
});

/** Public: which providers are set up (the web's navigation), and the coin logos. */
export async function marketInfoPublicRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const log = app.log.child({ module: "market-info" });
  const providers = marketInfoProvidersOf(context.config);

  routes.get(
    "/market-info/providers",
    {
      schema: {
        tags: ["market-info"],
        summary:
          "Which optional market-information providers are set up (crypto news and market data need COINMARKETCAP_API_KEY)",
        response: { 200: apiSuccessSchema(marketInfoProvidersSchema), ...failureResponses },
      },
    },
    async () => ({ status: "success" as const, data: providers }),
  );

  routes.get(
    "/crypto-market-data/images/:id",
    {
      schema: {
        tags: ["market-info"],
        summary:
          "The logo of a coin in the current market data listing, fetched and cached (24 h) by this server; 404 for any other id",
        params: coinImageParamsSchema,
      },
    },
    async (request, reply) => {
      if (!providers.crypto_market) throw notFound();
      const image = await fromProvider(
        () => marketInfoOf(context, log).coinImage(request.params.id),
        marketInfoMessages.coinImageUnavailable,
        log,
      );
      if (!image) throw notFound();
      return reply
        .header("content-type", image.type)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "public, max-age=86400")
        .header("content-disposition", "inline")
        .send(image.bytes);
    },
  );
}

export async function marketInfoRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const log = app.log.child({ module: "market-info" });
  const marketInfo = marketInfoOf(context, log);
  const providers = marketInfoProvidersOf(context.config);

  routes.get(
    "/blockchain-stats",
    {
      schema: {
        tags: ["market-info"],
        summary: "Bitcoin network statistics of the last 24 hours (blockchain.com), cached 30 s",
        security: [{ bearer: [] }],
        response: { 200: apiSuccessSchema(blockchainStatsSchema), ...failureResponses },
      },
    },
    async () => ({
      status: "success" as const,
      data: await fromProvider(
        () => marketInfo.blockchainStats(),
        marketInfoMessages.blockchainStatsUnavailable,
        log,
      ),
    }),
  );

  routes.get(
    "/crypto-news",
    {
      schema: {
        tags: ["market-info"],
        summary:
          "Crypto news, 10 a page (CoinMarketCap content, start=(page−1)·10+1, limit=10), cached 5 min",
        security: [{ bearer: [] }],
        querystring: newsQuerySchema,
        response: { 200: apiSuccessSchema(cryptoNewsPageSchema), ...failureResponses },
      },
    },
    async (request) => {
      requireProvider(providers.crypto_news, marketInfoMessages.cryptoNewsNotConfigured);
      return {
        status: "success" as const,
        data: await fromProvider(
          () => marketInfo.cryptoNews(request.query.page),
          marketInfoMessages.cryptoNewsUnavailable,
          log,
        ),
      };
    },
  );

  routes.get(
    "/crypto-market-data",
    {
      schema: {
        tags: ["market-info"],
        summary:
          "Top coins by market capitalisation in the shape of SPEC §3 Market data (CoinMarketCap listings), cached 60 s",
        security: [{ bearer: [] }],
        querystring: marketQuerySchema,
        response: { 200: apiSuccessSchema(cryptoMarketDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      requireProvider(providers.crypto_market, marketInfoMessages.cryptoMarketNotConfigured);
      return {
        status: "success" as const,
        data: await fromProvider(
          () => marketInfo.cryptoMarket(request.query.limit),
          marketInfoMessages.cryptoMarketUnavailable,
          log,
        ),
      };
    },
  );
}
