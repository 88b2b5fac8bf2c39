import { z } from "zod";
import { paginationSchema } from "./api.ts";

/**
 * Reply shapes of the trader's sessions and sign-in history (issue 12, item 5), shown on the
 * Security page and, for a trader, in the back office.
 */

/** What a sign-in attempt came to. The web app labels each; it never shows the code. */
export const signInResults = [
  "succeeded",
  "wrong_password",
  "second_factor_failed",
  "challenge_refused",
] as const;
export type SignInResult = (typeof signInResults)[number];

/** Words for each result, the same on the Security page and in the back office. */
export const signInResultLabels: Record<SignInResult, string> = {
  succeeded: "Signed in",
  wrong_password: "Wrong password",
  second_factor_failed: "Wrong second-factor code",
  challenge_refused: "Refused (verification challenge)",
};

/** One live session of the caller (GET /sessions). */
export const activeSessionSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** When it ends however active it is (the role's absolute lifetime). */
  expires_at: z.string(),
  ip: z.string().nullable(),
  /** "Chrome on Windows": a label from the user agent. */
  browser: z.string(),
  /** The session making this request. */
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const activeSessionsDataSchema = z.object({ sessions: z.array(activeSessionSchema) });

/** One sign-in attempt (GET /sign-in-history). */
export const signInAttemptSchema = z.object({
  id: z.number().int(),
  attempted_at: z.string(),
  ip: z.string(),
  browser: z.string(),
  result: z.enum(signInResults),
});
export type SignInAttempt = z.infer<typeof signInAttemptSchema>;

export const signInHistoryDataSchema = z.object({
  data: z.array(signInAttemptSchema),
  pagination: paginationSchema,
});
export type SignInHistoryPage = z.infer<typeof signInHistoryDataSchema>;

/** Rows per page of the sign-in history: default and most. */
export const sign_in_history_page_size_default = 20;
export const sign_in_history_page_size_max = 100;
