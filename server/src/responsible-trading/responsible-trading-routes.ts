import { apiSuccessSchema } from "@tp/domain/api";
import {
  realityCheckSettingsDataSchema,
  realityCheckSettingsSchema,
  responsibleTradingMessages,
  sessionFiguresSchema,
} from "@tp/domain/responsible-trading";
import {
  exclusionDataSchema,
  startExclusionSchema,
  traderLimitMessages,
  traderLimitsDataSchema,
  updateTraderLimitsSchema,
} from "@tp/domain/trader-limits";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { unauthenticated } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { exclusionOf, startExclusion } from "./exclusions.ts";
import { limitsOf, updateLimits } from "./limits.ts";
import {
  realityCheckSettingsOf,
  saveRealityCheckSettings,
  sessionFigures,
} from "./reality-check.ts";

/**
 * The trader's responsible-trading settings (issue 14): the reality check's setting and the
 * session figures its dialog shows; the trader's limits; time-outs and self-exclusion.
 * Trader scope: staff hold no trading accounts.
 */
export async function responsibleTradingRoutes(app: FastifyInstance, context: AppContext) {
  const { database, clock } = context;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["responsible trading"];
  const security = bearerSecurity;

  routes.get(
    "/responsible-trading/reality-check",
    {
      schema: {
        tags,
        summary: "The reality check's setting: on or off and its interval (default on, 60 minutes)",
        security,
        response: { 200: apiSuccessSchema(realityCheckSettingsDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const reality_check = await realityCheckSettingsOf(database, userId);
      return { status: "success" as const, data: { reality_check } };
    },
  );

  routes.put(
    "/responsible-trading/reality-check",
    {
      schema: {
        tags,
        summary: "Turn the reality check on or off and set its interval (10 to 60 minutes)",
        security,
        body: realityCheckSettingsSchema,
        response: { 200: apiSuccessSchema(realityCheckSettingsDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const reality_check = await saveRealityCheckSettings(
        database,
        userId,
        request.body,
        clock.now(),
      );
      return {
        status: "success" as const,
        message: responsibleTradingMessages.realityCheckSaved,
        data: { reality_check },
      };
    },
  );

  routes.get(
    "/responsible-trading/session",
    {
      schema: {
        tags,
        summary:
          "This session's real-account trading since its sign-in (length, trades, stakes, result) and the next reality check",
        security,
        response: { 200: apiSuccessSchema(sessionFiguresSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId, sessionId } = sessionOf(request);
      const figures = await sessionFigures(database, userId, sessionId, clock.now());
      if (figures === null) throw unauthenticated();
      return { status: "success" as const, data: figures };
    },
  );

  routes.get(
    "/responsible-trading/limits",
    {
      schema: {
        tags,
        summary:
          "The trader's limits in force, what each has used in its period, and raises or removals waiting out the 24-hour cooling-off",
        security,
        response: { 200: apiSuccessSchema(traderLimitsDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId, startedAt } = sessionOf(request);
      const limits = await limitsOf(database, userId, clock.now(), startedAt);
      return { status: "success" as const, data: { limits } };
    },
  );

  routes.put(
    "/responsible-trading/limits",
    {
      schema: {
        tags,
        summary:
          "Set (a number) or remove (null) limits; lowering takes effect at once, raising or removing after 24 hours",
        security,
        body: updateTraderLimitsSchema,
        response: { 200: apiSuccessSchema(traderLimitsDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId, startedAt } = sessionOf(request);
      const now = clock.now();
      const { pending } = await database.transaction((transaction) =>
        updateLimits(transaction, userId, request.body, now),
      );
      const limits = await limitsOf(database, userId, now, startedAt);
      return {
        status: "success" as const,
        message: pending
          ? traderLimitMessages.limitsSavedWithPending
          : traderLimitMessages.limitsSaved,
        data: { limits },
      };
    },
  );

  routes.get(
    "/responsible-trading/exclusion",
    {
      schema: {
        tags,
        summary: "The time-out or self-exclusion in force, or null",
        security,
        response: { 200: apiSuccessSchema(exclusionDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const exclusion = await exclusionOf(database, userId, clock.now());
      return { status: "success" as const, data: { exclusion } };
    },
  );

  routes.post(
    "/responsible-trading/exclusion",
    {
      schema: {
        tags,
        summary:
          "Start a time-out (1 day to 6 weeks) or self-exclusion (6 months to 5 years): trading and deposits stop at once; it cannot be shortened",
        security,
        body: startExclusionSchema,
        response: { 201: apiSuccessSchema(exclusionDataSchema), ...failureResponses },
      },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      const now = clock.now();
      const exclusion = await database.transaction((transaction) =>
        startExclusion(transaction, userId, request.body, now),
      );
      return reply.status(201).send({
        status: "success" as const,
        message: traderLimitMessages.exclusionStarted,
        data: { exclusion },
      });
    },
  );
}
