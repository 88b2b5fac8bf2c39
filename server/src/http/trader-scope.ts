import type { FastifyInstance } from "fastify";

/**
 * The trader money routes (trades, practice top-up, deposits, withdrawals, wallet requests,
 * identity uploads), nested in the signed-in scope without a prefix. Staff are not traders
 * (issue 12 item 8): every route added here is marked `traders_only`, and the session check
 * (authenticate.ts) refuses a staff session on it with 403 before the handler runs. A route
 * plugin is put in this scope in routes.ts; no handler repeats the check.
 */
export async function withTraderScope(
  signedIn: FastifyInstance,
  routes: (traders: FastifyInstance) => Promise<void>,
): Promise<void> {
  await signedIn.register(async (traders) => {
    traders.addHook("onRoute", function markTradersOnly(route) {
      route.config = { ...route.config, traders_only: true };
    });
    await routes(traders);
  });
}
