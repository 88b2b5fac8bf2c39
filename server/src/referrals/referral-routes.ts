import { apiSuccessSchema } from "@tp/domain/api";
import {
  type ReferralItem,
  referralDetailsSchema,
  referralListSchema,
  referrals_listed_max,
  referralUrl,
} from "@tp/domain/engagement";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { unauthenticated } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { findUserById, type ReferredTraderRow, referredTraders } from "../users/users.ts";

/** "Jane D.": a referrer sees who joined, never their full name or e-mail. */
export function referralName(row: Pick<ReferredTraderRow, "first_name" | "last_name">): string {
  const initial = row.last_name.trim().charAt(0).toUpperCase();
  return initial ? `${row.first_name.trim()} ${initial}.` : row.first_name.trim();
}

export function referralItem(row: ReferredTraderRow): ReferralItem {
  return { id: row.id, name: referralName(row), date_registered: row.created_at.toISOString() };
}

/**
 * Referrals (SPEC §2 "Referrals", §3 "Referral", §7). Every trader has a referral code from
 * sign-up; the link opens the sign-up page with ?ref=CODE, whose form sends it as
 * referral_code, and the new trader is stored as referred by the code's owner (users.ts).
 */
export async function referralRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["referrals"];
  const security = [{ bearer: [] }];

  routes.get(
    "/referral-details",
    {
      schema: {
        tags,
        summary: "The trader's referral code (referral_id) and link (referral_url)",
        security,
        response: { 200: apiSuccessSchema(referralDetailsSchema), ...failureResponses },
      },
    },
    async (request) => {
      const user = await findUserById(context.database, sessionOf(request).userId);
      if (!user) throw unauthenticated();
      return {
        status: "success" as const,
        data: {
          referral_id: user.referral_code,
          referral_url: referralUrl(context.config.PUBLIC_URL, user.referral_code),
        },
      };
    },
  );

  routes.get(
    "/referrals",
    {
      schema: {
        tags,
        summary: `Traders who signed up with the trader's code, newest first (at most ${referrals_listed_max}; total counts all)`,
        security,
        response: { 200: apiSuccessSchema(referralListSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { rows, total } = await referredTraders(
        context.database,
        sessionOf(request).userId,
        referrals_listed_max,
      );
      return { status: "success" as const, data: { data: rows.map(referralItem), total } };
    },
  );
}
