import { type BroadcastData, engagementMessages } from "@tp/domain/engagement";
import type { AppContext } from "../app-context.ts";
import { type AuditActor, recordAudit } from "../audit/audit-log.ts";
import { AppError } from "../http/errors.ts";
import type { IdempotencyKey } from "../idempotency/idempotency.ts";
import { type Reply, runIdempotent } from "../idempotency/idempotency.ts";
import { allTraderIds, findUserById } from "../users/users.ts";
import { storeNotifications } from "./notifications.ts";

export interface BroadcastInput {
  title: string;
  message: string;
  user_id?: number | null | undefined;
}

type BroadcastReplyBody = { status: "success"; message: string; data: BroadcastData };

/**
 * POST /admin/notifications (PRODUCT.md D7): staff send a notification to one trader, or to
 * every trader when no user_id is given. The notifications, their deliveries and the audit
 * record commit together; the stream and Web Push follow after the commit.
 */
export async function broadcastNotification(
  context: AppContext,
  actor: AuditActor & { userId: number },
  input: BroadcastInput,
  idempotency: IdempotencyKey | null,
): Promise<Reply<BroadcastReplyBody>> {
  const at = context.clock.now();
  const reply = await runIdempotent(
    context.database,
    actor.userId,
    idempotency,
    at,
    async (transaction) => {
      let recipients: number[];
      if (input.user_id) {
        const user = await findUserById(transaction, input.user_id);
        if (user?.role !== "trader") {
          throw new AppError("NOT_FOUND", engagementMessages.traderNotFound);
        }
        recipients = [user.id];
      } else {
        recipients = await allTraderIds(transaction);
      }
      const auditId = await recordAudit(transaction, {
        actor,
        action: "notification.broadcast",
        targetType: input.user_id ? "user" : "traders",
        targetId: input.user_id ?? "all",
        before: null,
        after: {
          title: input.title,
          message: input.message,
          user_id: input.user_id ?? null,
          recipients: recipients.length,
        },
        at,
      });
      const stored = await storeNotifications(transaction, recipients, {
        kind: "broadcast",
        title: input.title,
        message: input.message,
        reference: `audit:${auditId}`,
        at,
      });
      return {
        statusCode: 201,
        body: {
          status: "success" as const,
          message: engagementMessages.broadcastSentToMany(stored),
          data: { recipients: stored },
        },
      };
    },
  );
  if (!reply.replayed) context.notificationDelivery.kick();
  return reply;
}
