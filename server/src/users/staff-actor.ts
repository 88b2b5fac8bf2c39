import type { FastifyRequest } from "fastify";
import type { AppContext } from "../app-context.ts";
import type { AuditActor } from "../audit/audit-log.ts";
import { sessionOf } from "../http/authenticate.ts";
import { unauthenticated } from "../http/errors.ts";
import { findUserById } from "./users.ts";

/** Who is acting, for the audit log: the admin's id and e-mail, and the client address. */
export async function staffActorOf(
  context: AppContext,
  request: FastifyRequest,
): Promise<AuditActor & { userId: number }> {
  const { userId } = sessionOf(request);
  const user = await findUserById(context.database, userId);
  if (!user) throw unauthenticated();
  return { userId, label: user.email, ip: request.ip };
}
