import { z } from "zod";

/**
 * Operator-editable copy of the public site (PRODUCT.md D6). The server reads it from
 * CONTENT_DIR/site.json; the shipped defaults are neutral sample copy with no licence,
 * certification, regulator or statistic claims. A figure shows only if the operator sets it.
 */
const text = z.string().min(1).max(2000);
const item = z.object({ title: text, text });

export const siteContentSchema = z.object({
  company: z.object({
    name: text,
    tagline: text,
    description: text,
    /** Legal registration, as the operator states it; null shows nothing. */
    registration: text.nullable(),
    /** Year the company was founded; null (the default) shows nothing. */
    founded_year: z.number().int().min(1800).max(2200).nullable().default(null),
    /**
     * Licences the operator actually holds, each naming its regulator and number so a
     * visitor can check it. Empty (the default): the site claims no licence at all.
     */
    licences: z
      .array(
        z.object({
          name: text,
          regulator: text,
          number: text,
          /** The regulator's public register entry, if any. */
          url: text.nullable().default(null),
        }),
      )
      .max(20)
      .default([]),
    /** Certifications (e.g. PCI DSS) the operator holds; empty (the default) claims none. */
    certifications: z
      .array(z.object({ name: text, url: text.nullable().default(null) }))
      .max(20)
      .default([]),
  }),
  home: z.object({
    hero_title: text,
    hero_text: text,
    features: z.array(item).max(12),
    opportunity: item,
    security: item,
    team: item,
  }),
  about: z.object({
    founder_quote: z.object({ quote: text, author: text }).nullable(),
    statistics: z.array(z.object({ label: text, value: text })).max(12),
    values: z.array(item).max(12),
  }),
  contact: z.object({
    general_email: text.nullable(),
    help_center_url: text.nullable(),
    ticket_url: text.nullable(),
    reply_time: text.nullable(),
    support_hours: text.nullable(),
    languages: z.array(text).max(50),
    offices: z.array(z.object({ city: text, country: text, address: text })).max(50),
  }),
  risk_warning: text,
});

export type SiteContent = z.infer<typeof siteContentSchema>;

/**
 * The company description of the shipped sample copy (content/site.json). While the site
 * still shows it, the operator's setup checklist says the content is not published yet.
 */
export const sample_company_description =
  "TradePlatform is sample copy for a web trading platform. The operator replaces this text with its own company facts.";

/** Whether the content is still the shipped sample, and how many ways to reach support it gives. */
export function siteContentReadiness(content: SiteContent): {
  sample_copy: boolean;
  contact_channels: number;
} {
  const { general_email, help_center_url, ticket_url } = content.contact;
  return {
    sample_copy: content.company.description.trim() === sample_company_description,
    contact_channels: [general_email, help_center_url, ticket_url].filter(Boolean).length,
  };
}

export { defaultRiskWarning } from "./risk-warning.ts";
