import { queryOptions } from "@tanstack/react-query";
import { verificationListDataSchema } from "@tp/domain/funding";
import type { z } from "zod";
import { apiRequest } from "./client.ts";

export type VerificationList = z.infer<typeof verificationListDataSchema>;

export const verificationsQueryKey = ["verifications"] as const;

/** GET /verifications: the trader's identity documents, newest first, and kyc_verified_at. */
export async function fetchVerifications(signal?: AbortSignal): Promise<VerificationList> {
  const reply = await apiRequest<unknown>("/verifications", { signal });
  const parsed = verificationListDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The verifications reply does not match its schema");
  return parsed.data;
}

export function verificationsQueryOptions() {
  return queryOptions({
    queryKey: verificationsQueryKey,
    queryFn: ({ signal }) => fetchVerifications(signal),
  });
}
