import { z } from "zod";

/** GET /risk-disclosure's data (the shape of losing-accounts.ts's RiskDisclosure). */
export const losingAccountsSnapshotSchema = z.object({
  computed_at: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  accounts_traded: z.number().int().nonnegative(),
  accounts_lost: z.number().int().nonnegative(),
  min_accounts: z.number().int().positive(),
  lost_percent: z.number().int().min(0).max(100).nullable(),
});

export const riskDisclosureSchema = z.object({
  snapshot: losingAccountsSnapshotSchema.nullable(),
  sentence: z.string(),
  method: z.string(),
});
