import { apiSuccessSchema, tradingConditionsSchema } from "@tp/domain/api";
import { assetCatalogue, chartSymbol, findAsset } from "@tp/domain/catalogue";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";
import { closesAt, readCandles } from "./price-history.ts";
import { stale_price_ms } from "./price-store.ts";

export const candles_count_max = 1_000;
/** The 24 h reference closes are read at most this often. */
const reference_cache_ms = 30_000;

const marketSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  option_type: z.string(),
  chart_symbol: z.string(),
  precision: z.number().int(),
  price: z.number().nullable(),
  at: z.string().nullable(),
  change_24h_percent: z.number().nullable(),
  source: z.string().nullable(),
  is_open: z.boolean(),
});

export async function marketRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  let reference: { atMs: number; closes: Map<string, number> } | null = null;

  routes.get(
    "/trading-conditions",
    {
      schema: {
        tags: ["markets"],
        summary: "Whether real balances may trade on simulated prices (a development setting)",
        response: { 200: apiSuccessSchema(tradingConditionsSchema), ...failureResponses },
      },
    },
    async () => ({
      status: "success" as const,
      data: {
        // True only when the operator set the flag and a simulated feed is running.
        real_trading_on_simulated_prices:
          context.config.ALLOW_REAL_TRADING_ON_SIMULATED_PRICES &&
          assetCatalogue.some(
            (asset) => context.marketData.store.last(asset.symbol)?.source === "simulated",
          ),
      },
    }),
  );

  routes.get(
    "/markets",
    {
      schema: {
        tags: ["markets"],
        summary:
          "Every asset with its last price, 24 h change, price source and whether it trades now",
        response: {
          200: apiSuccessSchema(z.object({ markets: z.array(marketSchema) })),
          ...failureResponses,
        },
      },
    },
    async () => {
      const nowMs = context.clock.now().getTime();
      if (!reference || nowMs - reference.atMs > reference_cache_ms) {
        reference = {
          atMs: nowMs,
          closes: await closesAt(context.database, new Date(nowMs - 24 * 60 * 60 * 1000)),
        };
      }
      const closes = reference.closes;
      const markets = assetCatalogue.map((asset) => {
        const tick = context.marketData.store.last(asset.symbol);
        const previous = closes.get(asset.symbol);
        return {
          symbol: asset.symbol,
          name: asset.name,
          option_type: asset.optionType,
          chart_symbol: chartSymbol(asset),
          precision: asset.precision,
          price: tick?.price ?? null,
          at: tick ? new Date(tick.at).toISOString() : null,
          change_24h_percent:
            tick && previous
              ? Math.round(((tick.price - previous) / previous) * 10_000) / 100
              : null,
          source: tick?.source ?? null,
          is_open: tick !== undefined && nowMs - tick.at <= stale_price_ms,
        };
      });
      return { status: "success" as const, data: { markets } };
    },
  );

  routes.get(
    "/candles",
    {
      schema: {
        tags: ["markets"],
        summary: `Candles of one asset (at most ${candles_count_max}, the newest of the range)`,
        querystring: z.object({
          symbol: z.string().refine((symbol) => findAsset(symbol) !== undefined, "Unknown symbol"),
          interval: z.enum(["1s", "1m"]).default("1m"),
          from: z.coerce.date().optional(),
          to: z.coerce.date().optional(),
        }),
        response: {
          200: apiSuccessSchema(
            z.object({
              symbol: z.string(),
              interval: z.string(),
              candles: z.array(
                z.object({
                  time: z.number(),
                  open: z.number(),
                  high: z.number(),
                  low: z.number(),
                  close: z.number(),
                  source: z.string(),
                }),
              ),
            }),
          ),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const { symbol, interval } = request.query;
      const to = request.query.to ?? context.clock.now();
      const spanMs = (interval === "1s" ? 1_000 : 60_000) * candles_count_max;
      const from = request.query.from ?? new Date(to.getTime() - spanMs);
      const candles = await readCandles(
        context.database,
        symbol,
        interval,
        from,
        to,
        candles_count_max,
      );
      return { status: "success" as const, data: { symbol, interval, candles } };
    },
  );
}
