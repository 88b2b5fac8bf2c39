import { apiSuccessSchema } from "@tp/domain/api";
import {
  realityCheckSettingsDataSchema,
  realityCheckSettingsSchema,
  responsibleTradingMessages,
  sessionFiguresSchema,
} from "@tp/domain/responsible-trading";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { unauthenticated } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import {
  realityCheckSettingsOf,
  saveRealityCheckSettings,
  sessionFigures,
} from "./reality-check.ts";

/**
 * The trader's responsible-trading settings (issue 14): the reality check's setting and the
 * session figures its dialog shows. Trader scope: staff hold no trading accounts.
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
}
