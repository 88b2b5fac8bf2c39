import { serverMessages } from "@tp/domain/messages";
import type { FastifyInstance } from "fastify";
import type { SignedInContext } from "./authenticate.ts";
import { AppError, unauthenticated } from "./errors.ts";
import { checkSessionOnRequest } from "./signed-in-scope.ts";

/** Every back-office route is listed under this OpenAPI tag. */
export const staffTags = ["admin"];

/**
 * The back office's scope, /api/v1/admin (PRODUCT.md D7), nested in the signed-in scope.
 * Session and role are checked on request, before anything is parsed: signed out → 401, a
 * trader → 403, whatever the body. Every state change in it writes the audit log in its own
 * transaction.
 */
export async function withStaffScope(
  signedIn: FastifyInstance,
  context: SignedInContext,
  routes: (staff: FastifyInstance) => Promise<void>,
): Promise<void> {
  await signedIn.register(
    async (staff) => {
      checkSessionOnRequest(staff, context);
      staff.addHook("onRequest", async function requireStaff(request) {
        if (!request.session) throw unauthenticated();
        if (request.session.role !== "admin") {
          throw new AppError("FORBIDDEN", serverMessages.forbidden);
        }
      });
      await routes(staff);
    },
    { prefix: "/admin" },
  );
}
