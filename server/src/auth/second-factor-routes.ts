import {
  apiMessageSchema,
  apiSuccessSchema,
  enrolledDataSchema,
  signedInDataSchema,
} from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import {
  recoveryCodesSchema,
  secondFactorCodeSchema,
  signInSecondFactorSchema,
  stepUpSchema,
  totpEnrolmentSchema,
  twoFactorMessages,
  twoFactorStatusSchema,
} from "@tp/domain/two-factor";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { failureResponses } from "../http/replies.ts";
import { rateRules } from "../rate-limit/rate-limiter.ts";
import * as secondFactor from "./second-factor.ts";

/** The sign-in steps after the password (issue 12's login contract): public. */
export async function signInStepRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { rateLimiter } = context;
  const clientOf = (request: { ip: string; headers: Record<string, unknown> }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"] as string | undefined,
  });

  routes.post(
    "/login/second-factor",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Finish a sign-in with a TOTP code or a recovery code (after POST /login answered next_step second_factor)",
        body: signInSecondFactorSchema,
        response: { 200: apiSuccessSchema(signedInDataSchema), ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.loginPerIp, request.ip),
    },
    async (request) => {
      const data = await secondFactor.completeSecondFactorSignIn(
        context,
        request.body,
        clientOf(request),
      );
      return { status: "success" as const, message: serverMessages.loggedIn, data };
    },
  );

  routes.post(
    "/login/enrol",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Staff: confirm two-factor enrolment with a first code (after POST /login answered next_step enrol_totp); signs in and returns ten recovery codes, shown once",
        body: signInSecondFactorSchema,
        response: { 200: apiSuccessSchema(enrolledDataSchema), ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.loginPerIp, request.ip),
    },
    async (request) => {
      const data = await secondFactor.completeEnrolmentSignIn(
        context,
        request.body,
        clientOf(request),
      );
      return { status: "success" as const, message: twoFactorMessages.enabled, data };
    },
  );
}

/** Two-factor settings of the signed-in user and step-up (the Security page). */
export async function twoFactorRoutes(signedIn: FastifyInstance, context: AppContext) {
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/two-factor",
    {
      schema: {
        tags: ["account"],
        summary: "Whether two-factor authentication is on, and how many recovery codes are left",
        security: [{ bearer: [] }],
        response: { 200: apiSuccessSchema(twoFactorStatusSchema), ...failureResponses },
      },
    },
    async (request) => ({
      status: "success" as const,
      data: await secondFactor.twoFactorStatus(context, sessionOf(request)),
    }),
  );

  routes.post(
    "/two-factor/enrol",
    {
      schema: {
        tags: ["account"],
        summary:
          "Start two-factor enrolment (needs a fresh step-up): a new TOTP secret and its otpauth:// URI for the QR code",
        security: [{ bearer: [] }],
        response: { 200: apiSuccessSchema(totpEnrolmentSchema), ...failureResponses },
      },
    },
    async (request) => ({
      status: "success" as const,
      message: twoFactorMessages.enrolmentStarted,
      data: await secondFactor.startTotpEnrolment(context, sessionOf(request)),
    }),
  );

  routes.post(
    "/two-factor/confirm",
    {
      schema: {
        tags: ["account"],
        summary:
          "Confirm enrolment with a code from the app: two-factor on, ten single-use recovery codes returned once",
        security: [{ bearer: [] }],
        body: secondFactorCodeSchema,
        response: { 200: apiSuccessSchema(recoveryCodesSchema), ...failureResponses },
      },
    },
    async (request) => ({
      status: "success" as const,
      message: twoFactorMessages.enabled,
      data: await secondFactor.confirmTotpEnrolment(context, sessionOf(request), request.body.code),
    }),
  );

  routes.post(
    "/two-factor/disable",
    {
      schema: {
        tags: ["account"],
        summary: "Turn two-factor authentication off with a current code or a recovery code",
        security: [{ bearer: [] }],
        body: secondFactorCodeSchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
    },
    async (request) => {
      await secondFactor.disableTotp(context, sessionOf(request), request.body.code);
      return { status: "success" as const, message: twoFactorMessages.disabled };
    },
  );

  routes.post(
    "/two-factor/recovery-codes",
    {
      schema: {
        tags: ["account"],
        summary: "Replace the recovery codes with ten new ones (needs a current code)",
        security: [{ bearer: [] }],
        body: secondFactorCodeSchema,
        response: { 200: apiSuccessSchema(recoveryCodesSchema), ...failureResponses },
      },
    },
    async (request) => ({
      status: "success" as const,
      message: twoFactorMessages.recoveryCodesRegenerated,
      data: await secondFactor.regenerateRecoveryCodes(
        context,
        sessionOf(request),
        request.body.code,
      ),
    }),
  );

  routes.post(
    "/step-up",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Confirm it is you for the next 5 minutes: a code when two-factor is on, the password when it is off",
        security: [{ bearer: [] }],
        body: stepUpSchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
    },
    async (request) => {
      await secondFactor.stepUp(context, sessionOf(request), request.body);
      return { status: "success" as const, message: twoFactorMessages.steppedUp };
    },
  );
}
