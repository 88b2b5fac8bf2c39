import { useQuery } from "@tanstack/react-query";
import {
  type Exclusion,
  excludedMessage,
  exclusionEndMs,
  type StartExclusionRequest,
  traderLimitMessages,
  utcMomentText,
} from "@tp/domain/trader-limits";
import { useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { exclusionQueryOptions, useStartExclusionMutation } from "../../api/responsible-trading.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { SelectField } from "../../components/form-fields.tsx";
import { LockIcon } from "../../components/icons.tsx";
import { Modal } from "../../components/modal.tsx";
import { QueryStates } from "../../components/query-states.tsx";
import { SectionHeading } from "./section-heading.tsx";

const m = traderLimitMessages;

/**
 * With a break in force, a choice is offered only if it ends at least this much later: the
 * same time-out picked again a few seconds on would end "later" too, but extend nothing.
 */
const break_extension_min_ms = 60 * 60_000;

interface BreakChoice {
  /** The select's value: "time_out:7", "self_exclusion:12". */
  id: string;
  label: string;
  request: StartExclusionRequest;
}

/** Time-outs of 1 day to 6 weeks, self-exclusions of 6 months to 5 years (issue 14 item 2). */
const timeOutChoices: readonly BreakChoice[] = [
  [1, "1 day"],
  [7, "1 week"],
  [14, "2 weeks"],
  [30, "30 days"],
  [42, "6 weeks"],
].map(([days, label]) => ({
  id: `time_out:${days}`,
  label: `Time-out: ${label}`,
  request: { kind: "time_out", days: days as number },
}));

const selfExclusionChoices: readonly BreakChoice[] = [
  [6, "6 months"],
  [12, "1 year"],
  [24, "2 years"],
  [36, "3 years"],
  [60, "5 years"],
].map(([months, label]) => ({
  id: `self_exclusion:${months}`,
  label: `Self-exclusion: ${label}`,
  request: { kind: "self_exclusion", months: months as number },
}));

function kindName(request: StartExclusionRequest): string {
  return request.kind === "time_out" ? "time-out" : "self-exclusion";
}

/**
 * The confirmation: what stops, until when, and that it cannot be undone. The end shown is
 * counted from now; the server counts it from the moment it starts the break, a few
 * seconds later at most, and the section then shows the server's.
 */
function ConfirmBreakModal({
  choice,
  busy,
  onCancel,
  onConfirm,
}: {
  choice: BreakChoice;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const endsAt = new Date(exclusionEndMs(choice.request, Date.now())).toISOString();
  const name = kindName(choice.request);
  return (
    <Modal
      title={`Start a ${name}?`}
      onClose={onCancel}
      dismissible={!busy}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} busy={busy}>
            Start my {name}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3 text-sm text-slate-700 dark:text-slate-200">
        <p className="font-semibold text-slate-900 dark:text-white">
          Trading and deposits stop at once and stay stopped until {utcMomentText(endsAt)}.
        </p>
        <p>Once it has started, it cannot be shortened or undone.</p>
        <p>Withdrawals stay available throughout, and trades already open settle normally.</p>
      </div>
    </Modal>
  );
}

/** The break in force, in words: what it is, until when, what still works. */
function BreakInForce({ exclusion }: { exclusion: Exclusion }) {
  return (
    <div
      role="note"
      aria-label="Break in force"
      className="rounded-xl border border-amber-400/50 bg-amber-50 px-4 py-3 text-sm font-semibold text-amber-950 dark:bg-amber-400/10 dark:text-amber-100"
    >
      {excludedMessage(exclusion.kind, exclusion.ends_at)}
    </div>
  );
}

function BreakForm({ exclusion }: { exclusion: Exclusion | null }) {
  const start = useStartExclusionMutation();
  const [nowMs] = useState(() => Date.now());
  // With a break in force, only one that ends later is offered: a break cannot be shortened
  // (the server refuses one that would, EXCLUSION_NOT_SHORTENED).
  const endsAtMs = exclusion?.ends_at ? Date.parse(exclusion.ends_at) : null;
  const offered = (choices: readonly BreakChoice[]) =>
    endsAtMs === null
      ? choices
      : choices.filter(
          (choice) => exclusionEndMs(choice.request, nowMs) >= endsAtMs + break_extension_min_ms,
        );
  const timeOuts = offered(timeOutChoices);
  const selfExclusions = offered(selfExclusionChoices);
  const all = [...timeOuts, ...selfExclusions];
  const [selectedId, setSelectedId] = useState(all[0]?.id ?? "");
  const [confirming, setConfirming] = useState<BreakChoice | null>(null);
  const selected = all.find((choice) => choice.id === selectedId) ?? all[0];

  if (exclusion?.kind === "closure") return <BreakInForce exclusion={exclusion} />;

  const onConfirm = async (choice: BreakChoice) => {
    try {
      const started = await start.mutateAsync(choice.request);
      toast.success(started.message ?? m.exclusionStarted);
    } catch (error) {
      toast.error(errorMessage(error, m.exclusionFailed));
    } finally {
      setConfirming(null);
    }
  };

  return (
    <div className="flex flex-col gap-5">
      {exclusion ? <BreakInForce exclusion={exclusion} /> : null}
      {selected ? (
        <form
          noValidate
          aria-label="Take a break"
          className="grid gap-5 sm:grid-cols-[1fr_auto] sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            setConfirming(selected);
          }}
        >
          <SelectField
            label={exclusion ? "Extend it with a longer break" : "Length of the break"}
            value={selected.id}
            onChange={(event) => setSelectedId(event.target.value)}
          >
            {timeOuts.length > 0 ? (
              <optgroup label="Time-out">
                {timeOuts.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {choice.label}
                  </option>
                ))}
              </optgroup>
            ) : null}
            <optgroup label="Self-exclusion">
              {selfExclusions.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.label}
                </option>
              ))}
            </optgroup>
          </SelectField>
          <Button type="submit">Take a break</Button>
        </form>
      ) : null}
      {confirming ? (
        <ConfirmBreakModal
          choice={confirming}
          busy={start.isPending}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void onConfirm(confirming)}
        />
      ) : null}
    </div>
  );
}

/** Settings → Responsible trading → "Take a break" (issue 14 item 2). */
export function BreakSection() {
  const query = useQuery(exclusionQueryOptions());
  return (
    <Card aria-labelledby="break-title">
      <SectionHeading
        id="break-title"
        icon={<LockIcon className="size-5" />}
        title="Take a break"
        text="A time-out of 1 day to 6 weeks, or self-exclusion for 6 months to 5 years: trading and deposits stop at once, withdrawals stay available."
      />
      <QueryStates
        query={query}
        loadingLabel="Loading your break settings"
        failureTitle={m.exclusionLoadFailed}
      >
        {(exclusion) => <BreakForm exclusion={exclusion} />}
      </QueryStates>
    </Card>
  );
}
