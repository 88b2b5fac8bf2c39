import { fundingMessages, type PaymentMethodView } from "@tp/domain/funding";
import { Link } from "react-router";
import { AlertCircleIcon } from "../components/icons.tsx";
import { paths } from "../paths.ts";
import { BankIcon } from "./funding-icons.tsx";

/**
 * The mark each method wears in the list: a ticker on its brand colour, in the text colour
 * that reads on it at 4.5:1 or better (white on Bitcoin's orange is 2.9:1, so its ticker is
 * dark; the greens and teal are a shade deeper than their stock tone).
 */
const methodMarks: Record<string, { text: string; tone: string }> = {
  bitcoin: { text: "BTC", tone: "bg-orange-500 text-navy-950" },
  litecoin: { text: "LTC", tone: "bg-slate-600 text-white" },
  ethereum: { text: "ETH", tone: "bg-indigo-600 text-white" },
  "perfect-money": { text: "PM", tone: "bg-red-600 text-white" },
  "bitcoin-cash": { text: "BCH", tone: "bg-green-700 text-white" },
  usdt: { text: "USDT", tone: "bg-teal-700 text-white" },
  "western-union": { text: "WU", tone: "bg-yellow-500 text-slate-900" },
};

export function MethodMark({ method }: { method: Pick<PaymentMethodView, "id" | "kind"> }) {
  const mark = methodMarks[method.id];
  if (method.kind === "bank" || mark === undefined) {
    return (
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white">
        <BankIcon className="size-5" />
      </span>
    );
  }
  return (
    <span
      className={`flex size-10 shrink-0 items-center justify-center rounded-full text-[0.65rem] font-bold tracking-wide ${mark.tone}`}
    >
      {mark.text}
    </span>
  );
}

/** What the list says when not one method can be used: a reason, not a wall of grey cards. */
export interface NoMethodsText {
  title: string;
  reason: string;
}

function NoMethods({ text }: { text: NoMethodsText }) {
  return (
    <div
      role="status"
      className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center dark:border-navy-700"
    >
      <AlertCircleIcon className="size-8 text-slate-400" />
      <p className="font-semibold text-slate-900 dark:text-white">{text.title}</p>
      <p className="max-w-md text-sm text-slate-600 dark:text-slate-400">{text.reason}</p>
      <Link
        to={paths.contact}
        className="mt-1 text-sm font-semibold text-brand-700 underline dark:text-brand-400"
      >
        Contact support
      </Link>
    </div>
  );
}

/**
 * The payment methods (SPEC §2 "Funding flow"), each marked Recommended or Currently
 * unavailable. An unavailable one cannot be chosen: pressing it only shows the SPEC §5
 * notice beside it. When none can be used, one notice says so and why (issue 13).
 */
export function MethodList({
  label,
  methods,
  isUsable,
  selectedId,
  unavailableId,
  onChoose,
  noMethods,
}: {
  label: string;
  methods: readonly PaymentMethodView[];
  isUsable: (method: PaymentMethodView) => boolean;
  selectedId: string | null;
  unavailableId: string | null;
  onChoose: (method: PaymentMethodView) => void;
  noMethods: NoMethodsText;
}) {
  if (!methods.some(isUsable)) return <NoMethods text={noMethods} />;
  return (
    <ul aria-label={label} className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {methods.map((method) => {
        const usable = isUsable(method);
        const selected = method.id === selectedId;
        const noticeId = `method-${method.id}-unavailable`;
        return (
          <li key={method.id}>
            <button
              type="button"
              aria-pressed={selected}
              aria-disabled={usable ? undefined : true}
              aria-describedby={unavailableId === method.id ? noticeId : undefined}
              onClick={() => onChoose(method)}
              className={`flex w-full items-center gap-3 rounded-xl border p-3 text-left transition-colors ${
                selected
                  ? "border-brand-500 bg-brand-600/5 ring-2 ring-brand-500/30 dark:bg-brand-500/10"
                  : usable
                    ? "border-slate-200 bg-white hover:border-brand-400 hover:bg-slate-50 dark:border-navy-700 dark:bg-navy-900 dark:hover:border-brand-500 dark:hover:bg-navy-800"
                    : "cursor-not-allowed border-slate-200 bg-slate-50 opacity-70 dark:border-navy-800 dark:bg-navy-950"
              }`}
            >
              <MethodMark method={method} />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-semibold text-slate-900 dark:text-white">
                  {method.name}
                </span>
                {usable ? (
                  method.is_recommended ? (
                    <span className="mt-0.5 inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300">
                      Recommended
                    </span>
                  ) : (
                    <span className="mt-0.5 block text-xs text-slate-500 dark:text-slate-400">
                      Available
                    </span>
                  )
                ) : (
                  <span className="mt-0.5 inline-flex rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-600 dark:bg-navy-800 dark:text-slate-400">
                    Currently unavailable
                  </span>
                )}
              </span>
            </button>
            {unavailableId === method.id ? (
              <p
                id={noticeId}
                role="alert"
                className="mt-2 flex gap-2 rounded-lg bg-amber-50 px-3 py-2 text-xs font-medium text-amber-800 dark:bg-amber-500/10 dark:text-amber-300"
              >
                <AlertCircleIcon className="size-4 shrink-0" />
                {fundingMessages.methodUnavailableNotice}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
