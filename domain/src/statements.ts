import { z } from "zod";
import type { FieldErrors } from "./validation.ts";

/**
 * Statements and data export (issue 14 item 6): the period a trader or staff member asks
 * for, checked the same way by the web form and the server, with the messages both show.
 * A period is two calendar dates in UTC, both included.
 */

/** The longest period one statement or staff export covers (FATF keeps records 5 years). */
export const statement_period_years_max = 5;

export const statementFormats = ["csv", "pdf"] as const;
export type StatementFormat = (typeof statementFormats)[number];

export const statementAccounts = ["real", "practice"] as const;
export type StatementAccount = (typeof statementAccounts)[number];

/** The staff exports for auditors, each one CSV file for a period. */
export const staffExportKinds = ["deposits", "withdrawals", "ledger", "trades"] as const;
export type StaffExportKind = (typeof staffExportKinds)[number];

export const statementMessages = {
  dateFormat: "Enter the date as YYYY-MM-DD",
  dateInvalid: "That date does not exist",
  fromRequired: "Choose the first day of the period",
  toRequired: "Choose the last day of the period",
  toBeforeFrom: "The last day must be on or after the first day",
  toInFuture: "The last day cannot be in the future",
  periodTooLong: `A statement covers at most ${statement_period_years_max} years: choose a shorter period`,
  formatInvalid: "Choose CSV or PDF",
  accountInvalid: "Choose the real or the practice account",
  exportKindInvalid: "Choose deposits, withdrawals, ledger or trades",
  statementTooLong: "This statement has too many lines for one file: choose a shorter period",
  exportTooLarge: "This export has too many rows for one file: choose a shorter period",
  dataExportTooLarge:
    "Your data has too many trades for one file: ask support for your export and they will send it in parts",
} as const;

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD query value; the calendar and the period are checked by `statementPeriodProblems`. */
const dateQuery = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .max(10, statementMessages.dateFormat)
    .regex(datePattern, statementMessages.dateFormat);

/** GET /statements?from=&to=&format=&account= */
export const statementQuerySchema = z.object({
  from: dateQuery(statementMessages.fromRequired),
  to: dateQuery(statementMessages.toRequired),
  format: z.enum(statementFormats, { error: statementMessages.formatInvalid }).default("csv"),
  account: z.enum(statementAccounts, { error: statementMessages.accountInvalid }).default("real"),
});

/** GET /admin/exports/:kind?from=&to= */
export const staffExportParamsSchema = z.object({
  kind: z.enum(staffExportKinds, { error: statementMessages.exportKindInvalid }),
});
export const staffExportQuerySchema = z.object({
  from: dateQuery(statementMessages.fromRequired),
  to: dateQuery(statementMessages.toRequired),
});

/** Midnight UTC of a YYYY-MM-DD date, or null when it is not a real calendar date. */
export function utcDate(text: string): Date | null {
  if (!datePattern.test(text)) return null;
  const [year, month, day] = text.split("-").map(Number) as [number, number, number];
  // Years before 1970 are no one's account history; this also keeps PostgreSQL's range.
  if (year < 1970 || year > 9999) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return null;
  }
  return date;
}

/** The date `years` calendar years after `date` (29 February → 1 March). */
function addYears(date: Date, years: number): Date {
  const next = new Date(date);
  next.setUTCFullYear(date.getUTCFullYear() + years);
  return next;
}

export interface StatementPeriod {
  /** The first day, midnight UTC (included). */
  from: Date;
  /** Midnight UTC after the last day (excluded). */
  until: Date;
  /** The dates as asked for, YYYY-MM-DD. */
  fromText: string;
  toText: string;
}

/**
 * The period from/to (YYYY-MM-DD, both included) as of `now`, or the messages per field
 * saying what is wrong: a date that does not exist, a last day before the first, a last day
 * after today (UTC), or more than `statement_period_years_max` years.
 */
export function statementPeriod(
  fromText: string,
  toText: string,
  now: Date,
): { period: StatementPeriod } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const from = utcDate(fromText);
  const to = utcDate(toText);
  if (!from) {
    errors.from = [
      datePattern.test(fromText) ? statementMessages.dateInvalid : statementMessages.dateFormat,
    ];
  }
  if (!to) {
    errors.to = [
      datePattern.test(toText) ? statementMessages.dateInvalid : statementMessages.dateFormat,
    ];
  }
  if (!from || !to) return { errors };
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (to.getTime() < from.getTime()) errors.to = [statementMessages.toBeforeFrom];
  else if (to.getTime() > today.getTime()) errors.to = [statementMessages.toInFuture];
  else if (to.getTime() >= addYears(from, statement_period_years_max).getTime()) {
    errors.to = [statementMessages.periodTooLong];
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    period: {
      from,
      until: new Date(to.getTime() + 24 * 60 * 60 * 1000),
      fromText,
      toText,
    },
  };
}

/** The file name of a download, e.g. `statement-real-2026-01-01-to-2026-03-31.pdf`. */
export function statementFileName(
  what: string,
  period: { fromText: string; toText: string },
  extension: string,
): string {
  return `${what}-${period.fromText}-to-${period.toText}.${extension}`;
}
