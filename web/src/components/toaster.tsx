import { useEffect } from "react";
import {
  type DefaultToastOptions,
  resolveValue,
  type Toast,
  toast,
  useToaster,
} from "react-hot-toast/headless";
import { AlertCircleIcon, CheckCircleIcon, CloseIcon, InfoIcon, SpinnerIcon } from "./icons.tsx";

/**
 * SPEC §9: blank and error toasts last 4 s, success 2 s, loading never expires; at most 20
 * show at once. The headless build is used so no runtime-injected <style> is needed (the
 * Content-Security-Policy allows styles from 'self'); Tailwind draws the toasts instead.
 */
export const toast_blank_ms = 4_000;
export const toast_error_ms = 4_000;
export const toast_success_ms = 2_000;
export const toast_visible_max = 20;

const toastOptions: DefaultToastOptions = {
  blank: { duration: toast_blank_ms },
  error: { duration: toast_error_ms },
  success: { duration: toast_success_ms },
  loading: { duration: Number.POSITIVE_INFINITY },
};

function ToastIcon({ type }: { type: Toast["type"] }) {
  switch (type) {
    case "success":
      return <CheckCircleIcon className="size-5 shrink-0 text-emerald-500" />;
    case "error":
      return <AlertCircleIcon className="size-5 shrink-0 text-red-500" />;
    case "loading":
      return <SpinnerIcon className="size-5 shrink-0 text-brand-500" />;
    default:
      return <InfoIcon className="size-5 shrink-0 text-brand-500" />;
  }
}

export function Toaster() {
  const { toasts, handlers } = useToaster(toastOptions);

  // The store keeps newest first: anything past the limit is the oldest, so it goes.
  useEffect(() => {
    const visible = toasts.filter((item) => item.visible);
    for (const item of visible.slice(toast_visible_max)) toast.dismiss(item.id);
  }, [toasts]);

  const visible = toasts.filter((item) => item.visible).slice(0, toast_visible_max);
  // Toasts stack from the bottom (issue 13): at the top they covered the top bar's menus and
  // a dialog's title. On a phone they sit above the bottom bar; from 768 px (the shell's
  // breakpoint) in the bottom-right corner, clear of a centred dialog's title. Under 640 px a
  // dialog is a bottom sheet with its buttons at the bottom: while one is open the toasts
  // stack from the top instead (styles.css, `data-modal-open`), above the sheet's title.
  return (
    <section
      aria-label="Notifications"
      data-placement="bottom"
      className="pointer-events-none fixed inset-x-0 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-[100] flex flex-col-reverse items-center gap-2 px-3 md:inset-x-auto md:right-4 md:bottom-4 md:items-end md:px-0"
      onMouseEnter={handlers.startPause}
      onMouseLeave={handlers.endPause}
    >
      {visible.map((item) => (
        <div
          key={item.id}
          {...item.ariaProps}
          className="pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm text-slate-800 shadow-lg shadow-navy-950/10 dark:border-navy-700 dark:bg-navy-800 dark:text-slate-100"
        >
          {item.icon ?? <ToastIcon type={item.type} />}
          <div className="min-w-0 flex-1 break-words pt-0.5">
            {resolveValue(item.message, item)}
          </div>
          {item.type !== "loading" ? (
            <button
              type="button"
              onClick={() => toast.dismiss(item.id)}
              className="-mr-1 rounded p-0.5 text-slate-400 hover:text-slate-600 dark:hover:text-slate-200"
              aria-label="Dismiss notification"
            >
              <CloseIcon className="size-4" />
            </button>
          ) : null}
        </div>
      ))}
    </section>
  );
}
