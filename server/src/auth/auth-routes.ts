import { apiMessageSchema, apiSuccessSchema, loginDataSchema } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import {
  emailOnlySchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  updatePasswordSchema,
  verifyEmailSchema,
} from "@tp/domain/validation";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { validationError } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { rateRules } from "../rate-limit/rate-limiter.ts";
import * as accounts from "./account-service.ts";
import { throttleRules } from "./attempt-throttle.ts";

/** What GET /challenge answers: altcha-lib v2's challenge, as the altcha widget reads it. */
const proofOfWorkChallengeSchema = z.object({
  parameters: z.record(z.string(), z.unknown()),
  signature: z.string().optional(),
});

/** Sign-up, sign-in, e-mail verification and password resets (SPEC §7): the public part. */
export async function authRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { rateLimiter, attemptThrottle } = context;

  routes.get(
    "/challenge",
    {
      schema: {
        tags: ["auth"],
        summary:
          "A fresh ALTCHA proof-of-work challenge (the altcha widget's JSON, not the envelope), " +
          "asked for when sign-in, forgot-password or resend answer 428 CHALLENGE_REQUIRED",
        response: { 200: proofOfWorkChallengeSchema, ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.challengePerIp, request.ip),
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return context.proofOfWork.create();
    },
  );

  routes.post(
    "/register",
    {
      schema: {
        tags: ["auth"],
        summary: "Create a trader with a real account at 0.00 and a funded practice account",
        body: registerSchema,
        response: { 201: apiMessageSchema, ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.registerPerIp, request.ip),
    },
    async (request, reply) => {
      await accounts.register(context, request.body);
      return reply.status(201).send({ status: "success", message: serverMessages.registered });
    },
  );

  routes.post(
    "/login",
    {
      schema: {
        tags: ["auth"],
        summary: "Sign in; returns the user and a bearer token",
        body: loginSchema,
        response: { 200: apiSuccessSchema(loginDataSchema), ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.loginPerIp, request.ip),
    },
    async (request) => {
      // No lockout (issue 12 item 7): past a few attempts each waits longer, past the
      // threshold one needs a solved proof of work; the right password still gets in.
      await attemptThrottle.admit(throttleRules.signIn, request.body.email, request.body.altcha);
      const data = await accounts.login(context, request.body, {
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      });
      attemptThrottle.clear(throttleRules.signIn, request.body.email);
      return { status: "success" as const, message: serverMessages.loggedIn, data };
    },
  );

  routes.post(
    "/email/resend",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Send the verification e-mail again (same reply whether or not the address exists)",
        body: emailOnlySchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.resendPerIp, request.ip),
    },
    async (request) => {
      await attemptThrottle.admit(
        throttleRules.resendVerification,
        request.body.email,
        request.body.altcha,
      );
      await accounts.resendVerification(context, request.body.email);
      return { status: "success" as const, message: serverMessages.verificationResendNeutral };
    },
  );

  routes.post(
    "/email/verify",
    {
      schema: {
        tags: ["auth"],
        summary: "Verify the e-mail address with the token from the e-mailed link",
        body: verifyEmailSchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.verifyPerIp, request.ip),
    },
    async (request) => {
      const outcome = await accounts.verifyEmail(context, request.body);
      return {
        status: "success" as const,
        message:
          outcome === "verified"
            ? serverMessages.emailVerified
            : serverMessages.emailAlreadyVerified,
      };
    },
  );

  routes.post(
    "/forgot-password",
    {
      schema: {
        tags: ["auth"],
        summary: "E-mail a password reset link (same reply whether or not the address exists)",
        body: emailOnlySchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.forgotPerIp, request.ip),
    },
    async (request) => {
      await attemptThrottle.admit(
        throttleRules.forgotPassword,
        request.body.email,
        request.body.altcha,
      );
      await accounts.forgotPassword(context, request.body.email);
      return { status: "success" as const, message: serverMessages.forgotPasswordNeutral };
    },
  );

  routes.post(
    "/reset-password",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Set a new password with a reset link (single use, 60 minutes); signs out everywhere",
        body: resetPasswordSchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
      preValidation: async (request) => rateLimiter.consume(rateRules.resetPerIp, request.ip),
    },
    async (request) => {
      rateLimiter.consume(rateRules.resetPerAccount, request.body.email);
      await accounts.resetPassword(context, request.body);
      return { status: "success" as const, message: serverMessages.passwordReset };
    },
  );
}

/** Sign-out and password change (SPEC §7): the signed-in part (in the signed-in scope). */
export async function signedInAuthRoutes(signedIn: FastifyInstance, context: AppContext) {
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();

  routes.post(
    "/logout",
    {
      schema: {
        tags: ["auth"],
        summary: "Revoke this session",
        security: [{ bearer: [] }],
        response: { 200: apiMessageSchema, ...failureResponses },
      },
    },
    async (request) => {
      await accounts.logout(context, sessionOf(request));
      return { status: "success" as const, message: serverMessages.loggedOut };
    },
  );

  routes.post(
    "/logout-all-sessions",
    {
      schema: {
        tags: ["auth"],
        summary: "Revoke every other session of this user; this one stays",
        security: [{ bearer: [] }],
        response: { 200: apiMessageSchema, ...failureResponses },
      },
    },
    async (request) => {
      await accounts.logoutOtherSessions(context, sessionOf(request));
      return { status: "success" as const, message: serverMessages.sessionsRevoked };
    },
  );

  routes.put(
    "/update-password",
    {
      schema: {
        tags: ["account"],
        summary: "Change the password; every other session is signed out",
        security: [{ bearer: [] }],
        body: updatePasswordSchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      context.rateLimiter.consume(rateRules.currentPasswordPerSession, String(session.sessionId));
      const changed = await accounts.changePassword(context, session, request.body);
      if (!changed) {
        throw validationError({ current_password: [serverMessages.currentPasswordWrong] });
      }
      return { status: "success" as const, message: serverMessages.passwordUpdated };
    },
  );
}
