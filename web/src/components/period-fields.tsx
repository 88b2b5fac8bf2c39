import { statementPeriod } from "@tp/domain/statements";
import type { FieldErrors } from "@tp/domain/validation";
import { TextField } from "./form-fields.tsx";

export interface PeriodValues {
  from: string;
  to: string;
}

/** YYYY-MM-DD of a date in UTC (statements' days are UTC days). */
export function utcDateText(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The first day of this month to today (UTC): the period a statement page starts with. */
export function thisMonth(now: Date): PeriodValues {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { from: utcDateText(first), to: utcDateText(now) };
}

/** The same check as the server's, with the same messages, before anything is fetched. */
export function periodErrors(values: PeriodValues, now: Date): FieldErrors {
  const checked = statementPeriod(values.from, values.to, now);
  return "errors" in checked ? checked.errors : {};
}

/** "From" and "To" date pickers of a statement or export period. */
export function PeriodFields({
  values,
  errors,
  onChange,
  max,
}: {
  values: PeriodValues;
  errors: FieldErrors;
  onChange: (values: PeriodValues) => void;
  /** The last day that may be chosen (today, UTC). */
  max: string;
}) {
  return (
    <>
      <TextField
        label="From"
        type="date"
        value={values.from}
        max={max}
        error={errors.from?.[0]}
        onChange={(event) => onChange({ ...values, from: event.target.value })}
      />
      <TextField
        label="To"
        type="date"
        value={values.to}
        max={max}
        error={errors.to?.[0]}
        onChange={(event) => onChange({ ...values, to: event.target.value })}
      />
    </>
  );
}
