import { pushKeySchema } from "@tp/domain/engagement";
import { apiRequest } from "./client.ts";

/** GET /notifications/push-key: the VAPID public key the browser subscribes with. */
export async function fetchPushPublicKey(): Promise<string> {
  const reply = await apiRequest<unknown>("/notifications/push-key");
  const parsed = pushKeySchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The push key reply does not match its schema");
  return parsed.data.public_key;
}

/** POST /notifications/save-token {token}: the PushSubscription is the push token (D8). */
export async function savePushToken(token: PushSubscriptionJSON): Promise<void> {
  await apiRequest("/notifications/save-token", { method: "POST", body: { token } });
}
