import {
  accountClosureDataSchema,
  accountClosureMessages,
  requestAccountClosureSchema,
} from "@tp/domain/account-closure";
import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { closureOf, requestClosure } from "./closure.ts";

/**
 * The trader's account closure (issue 14 item 7): its state, and the request. Trader scope:
 * staff hold no trading accounts to close.
 */
export async function accountClosureRoutes(app: FastifyInstance, context: AppContext) {
  const { database, clock, config } = context;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["account closure"];
  const security = bearerSecurity;

  routes.get(
    "/account/closure",
    {
      schema: {
        tags,
        summary: "The account's closure: open, closing (and what it waits for) or closed",
        security,
        response: { 200: apiSuccessSchema(accountClosureDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      return {
        status: "success" as const,
        data: { closure: await closureOf(database, userId, config.RECORD_RETENTION_YEARS) },
      };
    },
  );

  routes.post(
    "/account/closure",
    {
      schema: {
        tags,
        summary:
          "Close the account (with the password): trading and deposits stop at once; it closes once open trades settle and pending deposits and withdrawals finish. Refused while real money is on it",
        security,
        body: requestAccountClosureSchema,
        response: {
          200: apiSuccessSchema(accountClosureDataSchema),
          201: apiSuccessSchema(accountClosureDataSchema),
          ...failureResponses,
        },
      },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      const { closure, created } = await requestClosure(
        database,
        userId,
        request.body,
        clock.now(),
        config.RECORD_RETENTION_YEARS,
      );
      return reply.status(created ? 201 : 200).send({
        status: "success" as const,
        message: created
          ? accountClosureMessages.requested
          : accountClosureMessages.alreadyRequested,
        data: { closure },
      });
    },
  );
}
