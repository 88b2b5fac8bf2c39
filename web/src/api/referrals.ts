import { queryOptions } from "@tanstack/react-query";
import {
  type ReferralDetails,
  type ReferralList,
  referralDetailsSchema,
  referralListSchema,
} from "@tp/domain/engagement";
import { apiRequest } from "./client.ts";

export const referralDetailsQueryKey = ["referral-details"] as const;
export const referralsQueryKey = ["referrals"] as const;

/** GET /referral-details: the trader's code (referral_id) and link (referral_url). */
export async function fetchReferralDetails(signal?: AbortSignal): Promise<ReferralDetails> {
  const reply = await apiRequest<unknown>("/referral-details", { signal });
  const parsed = referralDetailsSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The referral details reply does not match its schema");
  return parsed.data;
}

/** GET /referrals: the traders who signed up with the link, newest first. */
export async function fetchReferrals(signal?: AbortSignal): Promise<ReferralList> {
  const reply = await apiRequest<unknown>("/referrals", { signal });
  const parsed = referralListSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The referrals reply does not match its schema");
  return parsed.data;
}

export function referralDetailsQueryOptions() {
  return queryOptions({
    queryKey: referralDetailsQueryKey,
    queryFn: ({ signal }) => fetchReferralDetails(signal),
  });
}

export function referralsQueryOptions() {
  return queryOptions({
    queryKey: referralsQueryKey,
    queryFn: ({ signal }) => fetchReferrals(signal),
    refetchOnWindowFocus: true,
  });
}
