import { useEffect, useId, useRef, useState } from "react";
import {
  deviations_max,
  deviations_min,
  type IndicatorKey,
  type IndicatorSettings,
  indicatorKeys,
  indicatorLabels,
  period_max,
  period_min,
} from "./chart-settings.ts";

/**
 * The indicators button and its panel: a switch per indicator and its settings. A
 * disclosure, not a menu: the panel holds form fields, reached with Tab; Escape or a
 * click outside closes it and gives the focus back to the button.
 */
export function ChartIndicatorMenu({
  value,
  onChange,
}: {
  value: IndicatorSettings;
  onChange: (indicators: IndicatorSettings) => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const active = indicatorKeys.filter((key) => value[key].on).length;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const hadFocus = rootRef.current?.contains(document.activeElement) ?? false;
      setOpen(false);
      if (hadFocus) buttonRef.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  function change<K extends IndicatorKey>(key: K, next: Partial<IndicatorSettings[K]>) {
    onChange({ ...value, [key]: { ...value[key], ...next } });
  }

  return (
    <div ref={rootRef} className="sm:relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className="flex h-8 items-center gap-1.5 rounded-lg border border-slate-200 bg-slate-100 px-2.5 text-xs font-semibold text-slate-700 hover:text-slate-900 dark:border-navy-700 dark:bg-navy-800 dark:text-slate-200 dark:hover:text-white"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none">
          <path
            d="M2 15l5-6 4 3 7-9"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        Indicators
        {active > 0 ? (
          <span className="rounded-full bg-brand-500 px-1.5 text-[10px] leading-4 text-white">
            <span className="sr-only">(</span>
            {active}
            <span className="sr-only"> on)</span>
          </span>
        ) : null}
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute top-full right-4 left-4 z-30 mt-1 rounded-xl border border-slate-200 bg-white p-3 shadow-lg sm:right-0 sm:left-auto sm:w-80 dark:border-navy-700 dark:bg-navy-900"
      >
        <fieldset>
          <legend className="mb-2 text-xs font-bold text-slate-900 dark:text-white">
            Indicators
          </legend>
          <ul className="space-y-2.5">
            {indicatorKeys.map((key) => (
              <li key={key} className="space-y-1.5">
                <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
                  <input
                    type="checkbox"
                    checked={value[key].on}
                    onChange={(event) => change(key, { on: event.target.checked })}
                    className="size-4 accent-brand-500"
                  />
                  {indicatorLabels[key]}
                </label>
                <div className="flex flex-wrap gap-3 pl-6">
                  <NumberSetting
                    label="Period"
                    owner={indicatorLabels[key]}
                    value={value[key].period}
                    min={period_min}
                    max={period_max}
                    step={1}
                    onCommit={(period) => change(key, { period })}
                  />
                  {key === "bollinger" ? (
                    <NumberSetting
                      label="Std. dev."
                      owner={indicatorLabels[key]}
                      value={value.bollinger.deviations}
                      min={deviations_min}
                      max={deviations_max}
                      step={0.5}
                      onCommit={(deviations) => change("bollinger", { deviations })}
                    />
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </fieldset>
      </div>
    </div>
  );
}

/**
 * A number field that applies its value only when it is valid (a half-typed "1" for a
 * period of 14 changes nothing) and shows the last valid value again when left invalid.
 */
function NumberSetting({
  label,
  owner,
  value,
  min,
  max,
  step,
  onCommit,
}: {
  label: string;
  /** The indicator the field belongs to, for its accessible name. */
  owner: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onCommit: (value: number) => void;
}) {
  const [draft, setDraft] = useState(String(value));
  const hintId = useId();
  useEffect(() => setDraft(String(value)), [value]);
  const parsed = Number(draft);
  const valid =
    draft.trim() !== "" &&
    Number.isFinite(parsed) &&
    parsed >= min &&
    parsed <= max &&
    Number.isInteger(parsed / step);
  return (
    <label className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300">
      <span aria-hidden="true">{label}</span>
      <input
        type="number"
        inputMode={step < 1 ? "decimal" : "numeric"}
        aria-label={`${owner} ${label === "Std. dev." ? "standard deviations" : "period"}`}
        aria-invalid={!valid}
        aria-describedby={valid ? undefined : hintId}
        min={min}
        max={max}
        step={step}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value);
          const next = Number(event.target.value);
          if (
            event.target.value.trim() !== "" &&
            next >= min &&
            next <= max &&
            Number.isInteger(next / step)
          ) {
            onCommit(next);
          }
        }}
        onBlur={() => {
          if (!valid) setDraft(String(value));
        }}
        className="h-7 w-16 rounded-md border border-slate-300 bg-white px-1.5 text-xs tabular-nums text-slate-900 aria-invalid:border-red-500 dark:border-navy-600 dark:bg-navy-800 dark:text-white"
      />
      {valid ? null : (
        <span id={hintId} className="text-red-600 dark:text-red-400">
          {min}–{max}
        </span>
      )}
    </label>
  );
}
