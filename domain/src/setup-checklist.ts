import { z } from "zod";

/**
 * The operator's first-run checklist (issue 13 item 2): GET /api/v1/admin/setup reads the
 * platform's real state and says, item by item, what is set up and what is not. Each item
 * turns done only by a real change (a payment method configured in the back office, a
 * setting in the environment, the site copy edited, a staff member enrolled in 2FA), never
 * by ticking it off.
 */

export const setupItemIds = [
  "payment_methods",
  "prices",
  "mail",
  "site_content",
  "staff_two_factor",
] as const;
export type SetupItemId = (typeof setupItemIds)[number];

/** The facts each item is judged on, as the server read them. */
export const setupFactsSchema = z.object({
  payment_methods: z.object({
    /** Active and configured: traders can use these now. */
    available: z.number().int(),
    /** Every payment method (seeded, so always eight). */
    total: z.number().int(),
  }),
  prices: z.object({
    /** Assets priced by a live provider (Binance, Finnhub). */
    live_assets: z.number().int(),
    /** Assets priced by the simulator. */
    simulated_assets: z.number().int(),
  }),
  mail: z.object({
    /** SMTP_URL is set; otherwise e-mail is written to the server's log only. */
    smtp_configured: z.boolean(),
  }),
  site_content: z.object({
    /** The public pages still show the shipped sample company text. */
    sample_copy: z.boolean(),
    /** Ways to reach support the operator has published (e-mail, help centre, tickets). */
    contact_channels: z.number().int(),
  }),
  staff_two_factor: z.object({
    staff: z.number().int(),
    /** Staff with a confirmed authenticator app or a passkey. */
    enrolled: z.number().int(),
  }),
});
export type SetupFacts = z.infer<typeof setupFactsSchema>;

export const setupItemSchema = z.object({
  id: z.enum(setupItemIds),
  title: z.string(),
  done: z.boolean(),
  /** One sentence: what is the case now, and what to do if anything. */
  detail: z.string(),
});
export type SetupItem = z.infer<typeof setupItemSchema>;

export const setupChecklistSchema = z.object({
  items: z.array(setupItemSchema),
  facts: setupFactsSchema,
});
export type SetupChecklist = z.infer<typeof setupChecklistSchema>;

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

/** The items, in the order an operator would work through them, with their sentences. */
export function setupItemsOf(facts: SetupFacts): SetupItem[] {
  const { payment_methods, prices, mail, site_content, staff_two_factor } = facts;
  const unenrolled = staff_two_factor.staff - staff_two_factor.enrolled;
  const totalAssets = prices.live_assets + prices.simulated_assets;
  return [
    {
      id: "payment_methods",
      title: "Payment methods",
      done: payment_methods.available > 0,
      detail:
        payment_methods.available > 0
          ? `${payment_methods.available} of ${payment_methods.total} payment methods are active and configured, so traders can deposit and withdraw with them.`
          : `None of the ${payment_methods.total} payment methods is configured, so traders cannot deposit or withdraw: add a wallet address or bank details to at least one.`,
    },
    {
      id: "prices",
      title: "Live prices",
      done: prices.simulated_assets === 0,
      detail:
        prices.simulated_assets === 0
          ? `All ${totalAssets} assets are priced by live feeds.`
          : prices.live_assets === 0
            ? `All ${totalAssets} assets use simulated prices, so real-money trading is closed: set FEED_SOURCES (and FEED_API_KEY for Finnhub).`
            : `${plural(prices.simulated_assets, "asset")} of ${totalAssets} still use simulated prices and cannot be traded for real money: set FEED_SOURCES for them.`,
    },
    {
      id: "mail",
      title: "Outgoing e-mail",
      done: mail.smtp_configured,
      detail: mail.smtp_configured
        ? "E-mail is sent through the SMTP server in SMTP_URL."
        : "No SMTP server is set, so verification, password-reset and withdrawal e-mails are only written to the server log: set SMTP_URL.",
    },
    {
      id: "site_content",
      title: "Site content",
      done: !site_content.sample_copy && site_content.contact_channels > 0,
      detail: site_content.sample_copy
        ? "The public pages still show the sample company text: replace it with your own in CONTENT_DIR/site.json and restart."
        : site_content.contact_channels === 0
          ? "The public pages give traders no way to reach support: add an e-mail, help centre or ticket link under contact in CONTENT_DIR/site.json."
          : "The public pages show your own company text and how to reach support.",
    },
    {
      id: "staff_two_factor",
      title: "Staff two-factor authentication",
      done: unenrolled === 0,
      detail:
        unenrolled === 0
          ? `Every member of staff (${staff_two_factor.staff}) signs in with a second factor.`
          : `${plural(unenrolled, "member", "members")} of staff ${unenrolled === 1 ? "has" : "have"} no second factor yet; each is asked to set up an authenticator app at their first sign-in.`,
    },
  ];
}
