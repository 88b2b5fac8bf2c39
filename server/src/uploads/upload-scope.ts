import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../app-context.ts";
import { checkSessionOnRequest } from "../http/signed-in-scope.ts";
import type { RateRule } from "../rate-limit/rate-limiter.ts";

/** Uploads are the heaviest request a trader can make: bounded per account (all uploads). */
export const uploadsPerAccount: RateRule = {
  name: "upload:account",
  limit: 30,
  window_ms: 60 * 60_000,
};

/**
 * Multipart routes live in their own scope, nested in the signed-in one: only they parse
 * multipart bodies, and the session is checked on request, before a byte of the body is read.
 */
export async function withUploadScope(
  signedIn: FastifyInstance,
  context: AppContext,
  routes: (uploads: FastifyInstance) => Promise<void>,
): Promise<void> {
  await signedIn.register(async (uploads) => {
    await uploads.register(fastifyMultipart, { throwFileSizeLimit: true });
    checkSessionOnRequest(uploads, context);
    await routes(uploads);
  });
}
