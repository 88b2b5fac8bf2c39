import { apiSuccessSchema, tradingConditionsSchema } from "@tp/domain/api";
import { candle_interval_ms, candleIntervals } from "@tp/domain/candles";
import { assetCatalogue, chartSymbol, findAsset } from "@tp/domain/catalogue";
import { marketStates } from "@tp/domain/market-state";
import { dollarsFromCents } from "@tp/domain/money";
import { storableDateSchema } from "@tp/domain/validation";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";
import { marketStatusOf } from "./market-status.ts";
import { latestCloses, readCandles, referenceCloses } from "./price-history.ts";

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
  /** state === "open" (kept for clients of the first version). */
  is_open: z.boolean(),
  state: z.enum(marketStates),
  /** When a closed market opens next (its trading calendar); null when open or unknown. */
  next_open_at: z.string().nullable(),
  /** Whether the real account may trade it now (false while its prices are simulated). */
  real_trading: z.boolean(),
});

export async function marketRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  let reference: {
    atMs: number;
    closes: Map<string, number>;
    /** The newest stored close: the change's "now" for an asset with no tick in memory yet. */
    latest: Map<string, number>;
  } | null = null;

  routes.get(
    "/trading-conditions",
    {
      schema: {
        tags: ["markets"],
        summary:
          "Whether real balances may trade on simulated prices (a development setting), and the practice top-up level",
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
        practice_top_up_level: dollarsFromCents(context.config.practice_balance_cents),
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
          closes: await referenceCloses(
            context.database,
            assetCatalogue.map((asset) => asset.symbol),
            new Date(nowMs - 24 * 60 * 60 * 1000),
          ),
          latest: await latestCloses(context.database),
        };
      }
      const { closes, latest } = reference;
      const markets = assetCatalogue.map((asset) => {
        const tick = context.marketData.store.last(asset.symbol);
        const previous = closes.get(asset.symbol);
        // From history, so never "—" once the asset has any (issue 11).
        const current = tick?.price ?? latest.get(asset.symbol);
        const status = marketStatusOf(context, asset, nowMs);
        return {
          symbol: asset.symbol,
          name: asset.name,
          option_type: asset.optionType,
          chart_symbol: chartSymbol(asset, tick?.source),
          precision: asset.precision,
          price: tick?.price ?? null,
          at: tick ? new Date(tick.at).toISOString() : null,
          change_24h_percent:
            current !== undefined && previous
              ? Math.round(((current - previous) / previous) * 10_000) / 100
              : null,
          source: tick?.source ?? null,
          is_open: status.state === "open",
          state: status.state,
          next_open_at:
            status.nextOpenAtMs === null ? null : new Date(status.nextOpenAtMs).toISOString(),
          real_trading: status.realTrading,
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
        summary: `Candles of one asset at one interval (${candleIntervals.join(", ")}): at most ${candles_count_max}, the newest of the range, oldest first. 5m and up are aggregated from the 1-minute candles in UTC-aligned buckets; 1s over the simulated past is made again from its minutes, over a real provider's past there is none`,
        querystring: z
          .object({
            symbol: z
              .string()
              .refine((symbol) => findAsset(symbol) !== undefined, "Unknown symbol"),
            interval: z
              .enum(candleIntervals, {
                error: `Unknown interval (use ${candleIntervals.join(", ")})`,
              })
              .default("1m"),
            from: storableDateSchema.optional(),
            to: storableDateSchema.optional(),
          })
          .refine((query) => !(query.from && query.to && query.from > query.to), {
            message: "from must not be after to",
            path: ["from"],
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
      const from =
        request.query.from ??
        new Date(to.getTime() - candle_interval_ms[interval] * (candles_count_max - 1));
      const candles = await readCandles(context.database, {
        symbol,
        interval,
        from,
        to,
        limit: candles_count_max,
        simulatedSeed: context.config.SIMULATED_FEED_SEED,
      });
      return { status: "success" as const, data: { symbol, interval, candles } };
    },
  );
}
