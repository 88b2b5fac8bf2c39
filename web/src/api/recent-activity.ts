import { type RecentActivity, recentActivitySchema } from "@tp/domain/engagement";
import { apiRequest } from "./client.ts";

/** GET /activity/recent: real, anonymised transactions of the last day (PRODUCT.md D5). */
export async function fetchRecentActivity(signal?: AbortSignal): Promise<RecentActivity> {
  const reply = await apiRequest<unknown>("/activity/recent", { signal });
  const parsed = recentActivitySchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The recent activity reply does not match its schema");
  return parsed.data;
}
