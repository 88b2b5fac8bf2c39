import type { FastifyInstance } from "fastify";
import { activityRoutes } from "./activity/activity-routes.ts";
import { adminRoutes } from "./admin/admin-routes.ts";
import type { AppContext } from "./app-context.ts";
import { authRoutes } from "./auth/auth-routes.ts";
import { siteContentRoutes } from "./content/site-content.ts";
import { fundingRoutes } from "./funding/funding-routes.ts";
import { healthRoutes } from "./http/health-routes.ts";
import { practiceRoutes } from "./ledger/practice-routes.ts";
import { marketInfoRoutes } from "./market-info/market-info-routes.ts";
import { notificationRoutes } from "./notifications/notification-routes.ts";
import { marketRoutes } from "./prices/market-routes.ts";
import { referralRoutes } from "./referrals/referral-routes.ts";
import { streamRoutes } from "./stream/stream-routes.ts";
import { tradeRoutes } from "./trading/trade-routes.ts";
import { userRoutes } from "./users/user-routes.ts";

/** Every area's routes, mounted under /api/v1; a new area adds its plugin here. */
export const apiRoutePlugins: Array<(api: FastifyInstance, context: AppContext) => Promise<void>> =
  [
    healthRoutes,
    siteContentRoutes,
    authRoutes,
    userRoutes,
    practiceRoutes,
    marketRoutes,
    tradeRoutes,
    streamRoutes,
    fundingRoutes,
    referralRoutes,
    // Before adminRoutes: it starts the notification delivery the staff broadcast kicks.
    notificationRoutes,
    activityRoutes,
    marketInfoRoutes,
    adminRoutes,
  ];
