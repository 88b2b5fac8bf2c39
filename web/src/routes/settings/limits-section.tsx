import { useQuery } from "@tanstack/react-query";
import { formatUsd } from "@tp/domain/money";
import {
  isMoneyLimit,
  limit_cooling_off_hours,
  limitName,
  type TraderLimit,
  type TraderLimitKind,
  trader_limit_kinds,
  traderLimitMessages,
  type UpdateTraderLimitsRequest,
  updateTraderLimitsSchema,
  utcMomentText,
} from "@tp/domain/trader-limits";
import { useId } from "react";
import { type FieldErrors, type Resolver, useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import {
  traderLimitsQueryOptions,
  useSaveTraderLimitsMutation,
} from "../../api/responsible-trading.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { TargetIcon } from "../../components/icons.tsx";
import { QueryStates } from "../../components/query-states.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { SectionHeading } from "./section-heading.tsx";

const m = traderLimitMessages;

/** What the trader types: one text per kind, empty for no limit. */
type LimitsFormValues = Record<TraderLimitKind, string>;

/** The groups of the form, in the order the page shows them. */
const limitGroups: ReadonlyArray<{ title: string; kinds: readonly TraderLimitKind[] }> = [
  { title: "Loss limits", kinds: ["loss_day", "loss_week", "loss_month"] },
  { title: "Stake limits", kinds: ["stake_day", "stake_week", "stake_month"] },
  { title: "Deposit limits", kinds: ["deposit_day", "deposit_week", "deposit_month"] },
  { title: "Open trades and session time", kinds: ["open_trades", "session_minutes"] },
];

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fieldLabel(kind: TraderLimitKind): string {
  const name = capitalised(limitName(kind));
  if (isMoneyLimit(kind)) return `${name} (USD)`;
  if (kind === "session_minutes") return `${name} (minutes)`;
  return name;
}

/** A limit's value as the trader reads it: "$100.00", "3 open trades", "90 minutes". */
function valueText(kind: TraderLimitKind, value: number): string {
  if (isMoneyLimit(kind)) return formatUsd(value);
  if (kind === "open_trades") return `${value} open ${value === 1 ? "trade" : "trades"}`;
  return `${value} minutes`;
}

/** The input's text for a value in force: dollars with their cents when there are any. */
function inputText(kind: TraderLimitKind, value: number | null): string {
  if (value === null) return "";
  if (isMoneyLimit(kind) && !Number.isInteger(value)) return value.toFixed(2);
  return String(value);
}

function formValuesOf(limits: readonly TraderLimit[]): LimitsFormValues {
  const values = Object.fromEntries(trader_limit_kinds.map((kind) => [kind, ""]));
  for (const limit of limits) values[limit.kind] = inputText(limit.kind, limit.value);
  return values as LimitsFormValues;
}

/**
 * The typed text as the API's value: empty is no limit (null); a "$" and thousands commas
 * are allowed. Anything else that is not a number stays NaN, which the schema refuses with
 * the field's own message.
 */
function limitValueOfText(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, "").replaceAll(",", "");
  return trimmed === "" ? null : Number(trimmed);
}

function requestOf(values: LimitsFormValues, kinds: readonly TraderLimitKind[]) {
  return Object.fromEntries(kinds.map((kind) => [kind, limitValueOfText(values[kind])]));
}

/**
 * The server's schema (updateTraderLimitsSchema) on every field, so the form refuses what
 * the PUT would, with the same messages. The form keeps the typed text; the request is
 * built from it when saving.
 */
const limitsResolver: Resolver<LimitsFormValues> = (values) => {
  const parsed = updateTraderLimitsSchema.safeParse(requestOf(values, trader_limit_kinds));
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<LimitsFormValues> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as TraderLimitKind | undefined;
    if (field === undefined || errors[field]) continue;
    errors[field] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};

/** "Used: $12.50 · resets Wed, 25 Nov 2026, 00:00 UTC", or the open trades / session's minutes. */
function usedText(limit: TraderLimit): string {
  if (limit.kind === "open_trades") return `Open now: ${limit.used}`;
  if (limit.kind === "session_minutes") return `This session: ${limit.used} minutes`;
  const used = `Used: ${formatUsd(Math.max(0, limit.used))}`;
  return limit.resets_at ? `${used} · resets ${utcMomentText(limit.resets_at)}` : used;
}

function inForceText(limit: TraderLimit): string {
  return limit.value === null
    ? "No limit in force"
    : `In force: ${valueText(limit.kind, limit.value)}`;
}

/** "Raise to $200.00 takes effect …" or "Removal takes effect …". */
function pendingText(limit: TraderLimit): string | null {
  if (limit.pending === null) return null;
  const change =
    limit.pending.value === null
      ? "Removal"
      : `Raise to ${valueText(limit.kind, limit.pending.value)}`;
  return `${change}: takes effect ${utcMomentText(limit.pending.effective_at)}`;
}

function LimitField({
  limit,
  form,
}: {
  limit: TraderLimit;
  form: ReturnType<typeof useForm<LimitsFormValues>>;
}) {
  const {
    register,
    formState: { errors },
  } = form;
  const pending = pendingText(limit);
  const error = errors[limit.kind]?.message;
  // TextField names its hint and error `${id}-hint` and `${id}-error`; the pending change is
  // added to them, so a screen reader hears it with the value in force.
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, `${id}-hint`, pending ? `${id}-pending` : null]
    .filter((part) => part !== null)
    .join(" ");
  return (
    <div data-limit={limit.kind} className="flex flex-col">
      <TextField
        id={id}
        label={fieldLabel(limit.kind)}
        inputMode={isMoneyLimit(limit.kind) ? "decimal" : "numeric"}
        autoComplete="off"
        placeholder="No limit"
        hint={`${inForceText(limit)}. ${usedText(limit)}`}
        error={error}
        {...register(limit.kind)}
        aria-describedby={describedBy}
      />
      {pending ? (
        <p
          id={`${id}-pending`}
          className="mt-1.5 rounded-md bg-amber-50 px-2 py-1 text-xs font-medium text-amber-950 dark:bg-amber-400/10 dark:text-amber-100"
        >
          {pending}
        </p>
      ) : null}
    </div>
  );
}

function LimitsForm({ limits }: { limits: readonly TraderLimit[] }) {
  const save = useSaveTraderLimitsMutation();
  const form = useForm<LimitsFormValues>({
    resolver: limitsResolver,
    defaultValues: formValuesOf(limits),
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting, isDirty, dirtyFields },
  } = form;
  const byKind = new Map(limits.map((limit) => [limit.kind, limit]));

  const onValid = async (values: LimitsFormValues) => {
    // Only the kinds the trader changed: a kind left out keeps its limit and any pending
    // change (sending the value in force again would cancel a pending raise).
    const changed = trader_limit_kinds.filter((kind) => dirtyFields[kind]);
    const request = requestOf(values, changed) as UpdateTraderLimitsRequest;
    try {
      const saved = await save.mutateAsync(request);
      reset(formValuesOf(saved.limits));
      toast.success(saved.message ?? m.limitsSaved);
    } catch (error) {
      applyServerFieldErrors(error, setError, trader_limit_kinds);
      toast.error(errorMessage(error, m.limitsSaveFailed));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)} aria-label="Your limits">
      <div className="mb-5 rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700 dark:bg-navy-800 dark:text-slate-200">
        <p>
          Lowering a limit, or setting one where there was none, takes effect at once. Raising or
          removing a limit takes effect after {limit_cooling_off_hours} hours, so a decision made in
          the heat of the moment has time to cool.
        </p>
        <p className="mt-1">
          Leave a field empty for no limit. Periods follow UTC: the day starts at 00:00 UTC, the
          week on Monday and the month on its first day. Limits apply to real money only.
        </p>
      </div>
      <div className="flex flex-col gap-6">
        {limitGroups.map((group) => (
          <fieldset key={group.title}>
            <legend className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">
              {group.title}
            </legend>
            <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              {group.kinds.map((kind) => {
                const limit = byKind.get(kind);
                return limit ? <LimitField key={kind} limit={limit} form={form} /> : null;
              })}
            </div>
          </fieldset>
        ))}
      </div>
      <div className="mt-6 flex justify-end">
        <Button type="submit" busy={isSubmitting} disabled={!isDirty}>
          Save limits
        </Button>
      </div>
    </form>
  );
}

/** Settings → Responsible trading → "Your limits" (issue 14 item 1). */
export function LimitsSection() {
  const query = useQuery(traderLimitsQueryOptions());
  return (
    <Card aria-labelledby="limits-title">
      <SectionHeading
        id="limits-title"
        icon={<TargetIcon className="size-5" />}
        title="Your limits"
        text="Cap your losses, stakes and deposits per day, week and month, the trades you have open at once and how long a session lasts."
      />
      <QueryStates
        query={query}
        loadingLabel="Loading your limits"
        failureTitle={m.limitsLoadFailed}
      >
        {(limits) => <LimitsForm limits={limits} />}
      </QueryStates>
    </Card>
  );
}
