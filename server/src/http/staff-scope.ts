import { roleAtLeast, type StaffRole } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import type { FastifyInstance } from "fastify";
import type { SignedInContext } from "./authenticate.ts";
import { AppError, unauthenticated } from "./errors.ts";
import { checkSessionOnRequest } from "./signed-in-scope.ts";

/** Every back-office route is listed under this OpenAPI tag. */
export const staffTags = ["admin"];

declare module "fastify" {
  interface FastifyContextConfig {
    /** The least staff role a back-office route needs; every route in the staff scope says. */
    least_staff_role?: StaffRole;
  }
}

/**
 * A back-office route's `config`: the least role that may call it. Reads are for support,
 * queue decisions for reviewers, configuration (payment methods, staff, broadcast, sessions,
 * settings) for admins; a higher role may do all a lower one may (domain `roleAtLeast`).
 */
export const leastStaffRole = {
  support: { least_staff_role: "support" },
  reviewer: { least_staff_role: "reviewer" },
  admin: { least_staff_role: "admin" },
} as const satisfies Record<StaffRole, { least_staff_role: StaffRole }>;

/**
 * The back office's scope, /api/v1/admin (PRODUCT.md D7), nested in the signed-in scope.
 * Session and role are checked on request, before anything is parsed: signed out → 401, a
 * trader or a staff member below the route's least role → 403, whatever the body. The role
 * each route needs is declared once, in its `config` (`leastStaffRole`); a route that does
 * not declare one stops the server at start, so none is open by omission. Every state
 * change in it writes the audit log in its own transaction.
 */
export async function withStaffScope(
  signedIn: FastifyInstance,
  context: SignedInContext,
  routes: (staff: FastifyInstance) => Promise<void>,
): Promise<void> {
  await signedIn.register(
    async (staff) => {
      staff.addHook("onRoute", function requireDeclaredRole(route) {
        if (!route.config?.least_staff_role) {
          throw new Error(
            `${route.method} ${route.url}: a staff route must declare its least role`,
          );
        }
      });
      checkSessionOnRequest(staff, context);
      staff.addHook("onRequest", async function requireStaffRole(request) {
        if (!request.session) throw unauthenticated();
        const least = request.routeOptions.config.least_staff_role ?? "admin";
        if (!roleAtLeast(request.session.role, least)) {
          throw new AppError("FORBIDDEN", serverMessages.forbidden);
        }
      });
      await routes(staff);
    },
    { prefix: "/admin" },
  );
}
