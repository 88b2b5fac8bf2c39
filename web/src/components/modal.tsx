import { type ReactNode, useEffect, useId, useRef } from "react";
import { CloseIcon } from "./icons.tsx";
import { useDialogFocus } from "./use-dialog-focus.ts";

/**
 * A modal dialog: focus moves in when it opens and back to where it was when it closes, Tab
 * stays inside, Escape and a click on the backdrop close it unless `dismissible` is false
 * (while a trade is in flight, say).
 */
export function Modal({
  title,
  onClose,
  dismissible = true,
  size = "md",
  children,
  footer,
}: {
  title: string;
  onClose: () => void;
  dismissible?: boolean;
  size?: "md" | "lg";
  children: ReactNode;
  footer?: ReactNode;
}) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);

  useDialogFocus(true, panelRef, { onEscape: dismissible ? onClose : null });

  // `data-modal-open` moves the toasts out of a phone's bottom sheet (styles.css).
  useEffect(() => {
    document.body.classList.add("overflow-hidden");
    document.body.dataset.modalOpen = "";
    return () => {
      document.body.classList.remove("overflow-hidden");
      delete document.body.dataset.modalOpen;
    };
  }, []);

  return (
    <div className="fixed inset-0 z-[60] flex items-end justify-center p-0 sm:items-center sm:p-4">
      <button
        type="button"
        tabIndex={-1}
        aria-label="Close dialog"
        className="absolute inset-0 size-full cursor-default bg-navy-950/60 backdrop-blur-sm"
        onClick={dismissible ? onClose : undefined}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`relative flex max-h-[90dvh] w-full flex-col overflow-hidden rounded-t-2xl border border-slate-200 bg-white shadow-2xl outline-none sm:rounded-2xl dark:border-navy-700 dark:bg-navy-900 ${
          size === "lg" ? "sm:max-w-2xl" : "sm:max-w-md"
        }`}
      >
        <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-4 dark:border-navy-700">
          <h2 id={titleId} className="text-base font-semibold text-slate-900 dark:text-white">
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            disabled={!dismissible}
            aria-label="Close"
            className="-mr-1 rounded-lg p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600 disabled:opacity-40 dark:hover:bg-navy-800 dark:hover:text-slate-200"
          >
            <CloseIcon className="size-5" />
          </button>
        </div>
        <div className="overflow-y-auto px-5 py-4">{children}</div>
        {footer ? (
          <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-4 sm:flex-row sm:justify-end dark:border-navy-700">
            {footer}
          </div>
        ) : null}
      </div>
    </div>
  );
}
