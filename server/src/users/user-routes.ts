import { apiSuccessSchema, userDataSchema } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import { updateProfileSchema, validationMessages } from "@tp/domain/validation";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { unauthenticated, validationError } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { findUserById, updatePersonalData, userView } from "./users.ts";

export async function userRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/user",
    {
      schema: {
        tags: ["account"],
        summary: "The signed-in user with both balances",
        security: [{ bearer: [] }],
        response: { 200: apiSuccessSchema(userDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const user = await userView(context.database, sessionOf(request).userId);
      if (!user) throw unauthenticated();
      return { status: "success" as const, data: { user } };
    },
  );

  routes.put(
    "/update-profile",
    {
      schema: {
        tags: ["account"],
        summary:
          "Change first name, last name and phone; e-mail, username and country cannot change",
        security: [{ bearer: [] }],
        body: updateProfileSchema,
        response: { 200: apiSuccessSchema(userDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const { database, clock } = context;
      const current = await findUserById(database, userId);
      if (!current) throw unauthenticated();
      // The spec's form sends the country back; a different one is refused, not ignored.
      if (request.body.country !== undefined && request.body.country !== current.country) {
        throw validationError({ country: [validationMessages.countryUnchangeable] });
      }
      await updatePersonalData(database, userId, request.body, clock.now());
      const user = await userView(database, userId);
      return {
        status: "success" as const,
        message: serverMessages.profileUpdated,
        data: { user: user! },
      };
    },
  );
}
