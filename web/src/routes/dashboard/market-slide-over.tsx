import { type ReactNode, useRef } from "react";
import { CloseIcon } from "../../components/icons.tsx";
import { useDialogFocus } from "../../components/use-dialog-focus.ts";

/**
 * SPEC §2: on small screens the market overview slides over the page from the left. It
 * stops above the mobile bottom bar, which stays visible and usable.
 */
export function MarketSlideOver({
  onClose,
  children,
}: {
  onClose: () => void;
  children: ReactNode;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  useDialogFocus(true, panelRef, { onEscape: onClose, initialFocus: closeRef });

  return (
    <div className="fixed inset-x-0 top-0 bottom-16 z-[45] md:bottom-0 lg:hidden">
      <button
        type="button"
        tabIndex={-1}
        aria-label="Close markets"
        className="absolute inset-0 size-full cursor-default bg-navy-950/60 backdrop-blur-sm"
        onClick={onClose}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label="Markets"
        className="absolute inset-y-0 left-0 flex w-[min(20rem,88vw)] flex-col bg-white shadow-2xl dark:bg-navy-900"
      >
        <div className="flex justify-end px-2 pt-2">
          <button
            ref={closeRef}
            type="button"
            onClick={onClose}
            aria-label="Close markets"
            className="inline-flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-navy-800"
          >
            <CloseIcon />
          </button>
        </div>
        <div className="min-h-0 flex-1">{children}</div>
      </div>
    </div>
  );
}
