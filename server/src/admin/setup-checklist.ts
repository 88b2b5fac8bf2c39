import { assetCatalogue } from "@tp/domain/catalogue";
import { type SetupChecklist, type SetupFacts, setupItemsOf } from "@tp/domain/setup-checklist";
import { siteContentReadiness } from "@tp/domain/site-content";
import type { AppContext } from "../app-context.ts";
import { staffSecondFactorCounts } from "../auth/totp.ts";
import { isAvailable, listPaymentMethods } from "../funding/payment-methods.ts";

/**
 * The operator's setup checklist (issue 13 item 2), read from the platform's real state on
 * every request: the payment methods table, the settings this process started with, the
 * site content it loaded and the staff's second factors. Nothing here is stored, so an item
 * turns done only when the thing it names is done.
 */
export async function setupChecklist(
  context: Pick<AppContext, "database" | "config" | "siteContent">,
): Promise<SetupChecklist> {
  const [methods, staff] = await Promise.all([
    listPaymentMethods(context.database),
    staffSecondFactorCounts(context.database),
  ]);
  const sources = context.config.FEED_SOURCES;
  const simulated = assetCatalogue.filter(
    (asset) => (sources[asset.symbol] ?? "simulated") === "simulated",
  ).length;
  const facts: SetupFacts = {
    payment_methods: { available: methods.filter(isAvailable).length, total: methods.length },
    prices: { live_assets: assetCatalogue.length - simulated, simulated_assets: simulated },
    mail: { smtp_configured: Boolean(context.config.SMTP_URL) },
    site_content: siteContentReadiness(context.siteContent),
    staff_two_factor: staff,
  };
  return { items: setupItemsOf(facts), facts };
}
