import { apiMessageSchema, apiSuccessSchema, signedInDataSchema } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import {
  passkeyAuthenticationOptionsDataSchema,
  passkeyDataSchema,
  passkeyListDataSchema,
  passkeyRegistrationOptionsDataSchema,
  passkeyRegistrationRequestSchema,
  passkeyRenameRequestSchema,
  passkeySignInOptionsRequestSchema,
  passkeySignInRequestSchema,
  passkeyStepUpRequestSchema,
} from "@tp/domain/passkey-api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { rateRules } from "../rate-limit/rate-limiter.ts";
import * as passkeys from "./passkeys.ts";
import { relyingPartyFor } from "./webauthn-relying-party.ts";

function relyingPartyOf(context: AppContext, request: FastifyRequest) {
  return relyingPartyFor(context.config.PUBLIC_URL, context.siteContent.company.name, {
    protocol: request.protocol,
    host: request.headers.host,
  });
}

function clientOf(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers["user-agent"] };
}

/** Sign-in with a passkey, alone or as the second factor of POST /login (public). */
export async function passkeySignInRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { rateLimiter } = context;
  // Each options call stores a challenge before anyone is known: bounded per address.
  const limitPerIp = async (request: FastifyRequest) =>
    rateLimiter.consume(rateRules.passkeyPerIp, request.ip);

  routes.post(
    "/login/passkey/options",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Options to sign in with a passkey: any passkey of this site without a body, or only the pending sign-in's passkeys with its sign_in_token",
        body: passkeySignInOptionsRequestSchema,
        response: {
          200: apiSuccessSchema(passkeyAuthenticationOptionsDataSchema),
          ...failureResponses,
        },
      },
      preValidation: limitPerIp,
    },
    async (request) => {
      const data = await passkeys.startSignIn(
        context,
        relyingPartyOf(context, request),
        request.body?.sign_in_token,
        clientOf(request),
      );
      return { status: "success" as const, data };
    },
  );

  routes.post(
    "/login/passkey",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Sign in with a passkey (with sign_in_token: as the second factor after the password); returns the user and a bearer token",
        body: passkeySignInRequestSchema,
        response: { 200: apiSuccessSchema(signedInDataSchema), ...failureResponses },
      },
      preValidation: limitPerIp,
    },
    async (request) => {
      const data = await passkeys.finishPasskeySignIn(
        context,
        relyingPartyOf(context, request),
        request.body,
        clientOf(request),
      );
      return { status: "success" as const, message: serverMessages.loggedIn, data };
    },
  );
}

/** The signed-in user's passkeys, and step-up with one (in the signed-in scope). */
export async function passkeyRoutes(signedIn: FastifyInstance, context: AppContext) {
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();
  const security = bearerSecurity;

  routes.get(
    "/passkeys",
    {
      schema: {
        tags: ["account"],
        summary: "This account's passkeys: name, when added, when last used",
        security,
        response: { 200: apiSuccessSchema(passkeyListDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const list = await passkeys.listPasskeys(context.database, sessionOf(request).userId);
      return { status: "success" as const, data: { passkeys: list } };
    },
  );

  routes.post(
    "/passkeys/registration/options",
    {
      schema: {
        tags: ["account"],
        summary: "Options to create a passkey (needs a fresh step-up)",
        security,
        response: {
          200: apiSuccessSchema(passkeyRegistrationOptionsDataSchema),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const data = await passkeys.startRegistration(
        context,
        sessionOf(request),
        relyingPartyOf(context, request),
        clientOf(request),
      );
      return { status: "success" as const, data };
    },
  );

  routes.post(
    "/passkeys/registration",
    {
      schema: {
        tags: ["account"],
        summary: "Store the passkey the authenticator created (needs a fresh step-up)",
        security,
        body: passkeyRegistrationRequestSchema,
        response: { 201: apiSuccessSchema(passkeyDataSchema), ...failureResponses },
      },
    },
    async (request, reply) => {
      const passkey = await passkeys.finishRegistration(
        context,
        sessionOf(request),
        relyingPartyOf(context, request),
        request.body,
      );
      return reply
        .status(201)
        .send({ status: "success", message: serverMessages.passkeyAdded, data: { passkey } });
    },
  );

  routes.patch(
    "/passkeys/:id",
    {
      schema: {
        tags: ["account"],
        summary: "Rename one of this account's passkeys",
        security,
        params: idParamsSchema,
        body: passkeyRenameRequestSchema,
        response: { 200: apiSuccessSchema(passkeyDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const passkey = await passkeys.renamePasskey(
        context,
        sessionOf(request),
        request.params.id,
        request.body.name,
      );
      return {
        status: "success" as const,
        message: serverMessages.passkeyRenamed,
        data: { passkey },
      };
    },
  );

  routes.delete(
    "/passkeys/:id",
    {
      schema: {
        tags: ["account"],
        summary: "Remove one of this account's passkeys (needs a fresh step-up)",
        security,
        params: idParamsSchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
    },
    async (request) => {
      await passkeys.removePasskey(context, sessionOf(request), request.params.id);
      return { status: "success" as const, message: serverMessages.passkeyRemoved };
    },
  );

  routes.post(
    "/step-up/passkey/options",
    {
      schema: {
        tags: ["auth"],
        summary: "Options to confirm it is you with one of this account's passkeys (step-up)",
        security,
        response: {
          200: apiSuccessSchema(passkeyAuthenticationOptionsDataSchema),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const data = await passkeys.startStepUp(
        context,
        sessionOf(request),
        relyingPartyOf(context, request),
        clientOf(request),
      );
      return { status: "success" as const, data };
    },
  );

  routes.post(
    "/step-up/passkey",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Confirm it is you with a passkey: money may leave and keys may change for the next 5 minutes",
        security,
        body: passkeyStepUpRequestSchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
    },
    async (request) => {
      await passkeys.finishStepUp(
        context,
        sessionOf(request),
        relyingPartyOf(context, request),
        request.body,
      );
      return { status: "success" as const, message: serverMessages.passkeySteppedUp };
    },
  );
}
