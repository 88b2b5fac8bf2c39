import type { FastifyInstance } from "fastify";
import { accountClosureRoutes } from "./account-closure/account-closure-routes.ts";
import { activityRoutes } from "./activity/activity-routes.ts";
import { setupRoutes } from "./admin/setup-routes.ts";
import { userAdminRoutes } from "./admin/user-admin-routes.ts";
import type { AppContext } from "./app-context.ts";
import { auditLogRoutes } from "./audit/audit-log-routes.ts";
import { authRoutes, signedInAuthRoutes } from "./auth/auth-routes.ts";
import { passkeyRoutes, passkeySignInRoutes } from "./auth/passkey-routes.ts";
import { signInStepRoutes, twoFactorRoutes } from "./auth/second-factor-routes.ts";
import { sessionAdminRoutes } from "./auth/session-admin-routes.ts";
import { sessionRoutes } from "./auth/session-routes.ts";
import { siteContentRoutes } from "./content/site-content.ts";
import { riskDisclosureRoutes } from "./disclosure/risk-disclosure-routes.ts";
import { depositAdminRoutes } from "./funding/deposit-admin-routes.ts";
import { depositRoutes } from "./funding/deposit-routes.ts";
import { paymentMethodAdminRoutes } from "./funding/payment-method-admin-routes.ts";
import { paymentMethodRoutes } from "./funding/payment-method-routes.ts";
import { transactionHistoryRoutes } from "./funding/transaction-history-routes.ts";
import { verificationAdminRoutes } from "./funding/verification-admin-routes.ts";
import { verificationRoutes } from "./funding/verification-routes.ts";
import { withdrawalAdminRoutes } from "./funding/withdrawal-admin-routes.ts";
import { withdrawalConfirmationRoutes, withdrawalRoutes } from "./funding/withdrawal-routes.ts";
import { healthRoutes } from "./http/health-routes.ts";
import { withSignedInScope } from "./http/signed-in-scope.ts";
import { withStaffScope } from "./http/staff-scope.ts";
import { withTraderScope } from "./http/trader-scope.ts";
import { journalCheckpointRoutes, journalVerifyRoutes } from "./journal/journal-routes.ts";
import { restrictedCountryRoutes } from "./jurisdictions/restricted-countries.ts";
import { practiceRoutes } from "./ledger/practice-routes.ts";
import { marketInfoPublicRoutes, marketInfoRoutes } from "./market-info/market-info-routes.ts";
import { broadcastRoutes } from "./notifications/broadcast-routes.ts";
import {
  notificationInboxRoutes,
  notificationRoutes,
} from "./notifications/notification-routes.ts";
import { feedHealthRoutes } from "./prices/feed-health-routes.ts";
import { marketRoutes } from "./prices/market-routes.ts";
import { receiptKeyRoutes, tradeReceiptRoutes } from "./receipts/receipt-routes.ts";
import { reconciliationRoutes } from "./reconciliation/reconciliation-routes.ts";
import { referralRoutes } from "./referrals/referral-routes.ts";
import { responsibleTradingRoutes } from "./responsible-trading/responsible-trading-routes.ts";
import { staffExportRoutes, statementRoutes } from "./statements/statement-routes.ts";
import { streamRoutes } from "./stream/stream-routes.ts";
import { marketHaltRoutes } from "./trading/market-halt-routes.ts";
import { rulebookRoutes } from "./trading/rulebook-routes.ts";
import { tradeRoutes } from "./trading/trade-routes.ts";
import { userRoutes } from "./users/user-routes.ts";

/** Adds routes to a scope; the scope's hooks have already been added. */
export type ScopedRoutes = (scope: FastifyInstance, context: AppContext) => Promise<void>;

/** Routes anyone may call (each checks what it needs: rate limits, the stream's Origin). */
export const publicRoutePlugins: ScopedRoutes[] = [
  healthRoutes,
  siteContentRoutes,
  riskDisclosureRoutes,
  restrictedCountryRoutes,
  rulebookRoutes,
  receiptKeyRoutes,
  journalCheckpointRoutes,
  authRoutes,
  passkeySignInRoutes,
  signInStepRoutes,
  withdrawalConfirmationRoutes,
  marketRoutes,
  marketHaltRoutes,
  marketInfoPublicRoutes,
  streamRoutes,
  notificationRoutes,
];

/** Routes of a signed-in user: mounted in the signed-in scope, which checks the session. */
export const signedInRoutePlugins: ScopedRoutes[] = [
  signedInAuthRoutes,
  passkeyRoutes,
  sessionRoutes,
  twoFactorRoutes,
  userRoutes,
  transactionHistoryRoutes,
  referralRoutes,
  notificationInboxRoutes,
  activityRoutes,
  marketInfoRoutes,
];

/**
 * Trader money routes: mounted in the trader scope inside the signed-in one, which refuses
 * a staff session with 403 (staff hold no trading or funding accounts).
 */
export const traderRoutePlugins: ScopedRoutes[] = [
  practiceRoutes,
  tradeRoutes,
  tradeReceiptRoutes,
  paymentMethodRoutes,
  depositRoutes,
  withdrawalRoutes,
  verificationRoutes,
  statementRoutes,
  responsibleTradingRoutes,
  accountClosureRoutes,
];

/** Back-office routes: mounted under /admin in the staff scope, inside the signed-in one. */
export const staffRoutePlugins: ScopedRoutes[] = [
  setupRoutes,
  journalVerifyRoutes,
  depositAdminRoutes,
  withdrawalAdminRoutes,
  verificationAdminRoutes,
  userAdminRoutes,
  sessionAdminRoutes,
  paymentMethodAdminRoutes,
  broadcastRoutes,
  auditLogRoutes,
  reconciliationRoutes,
  feedHealthRoutes,
  staffExportRoutes,
];

/** Every area's routes, mounted under /api/v1; a new area adds its plugin to one list above. */
export async function apiRoutes(api: FastifyInstance, context: AppContext): Promise<void> {
  for (const plugin of publicRoutePlugins) await plugin(api, context);
  await withSignedInScope(api, context, async (signedIn) => {
    for (const plugin of signedInRoutePlugins) await plugin(signedIn, context);
    await withTraderScope(signedIn, async (traders) => {
      for (const plugin of traderRoutePlugins) await plugin(traders, context);
    });
    await withStaffScope(signedIn, context, async (staff) => {
      for (const plugin of staffRoutePlugins) await plugin(staff, context);
    });
  });
}
