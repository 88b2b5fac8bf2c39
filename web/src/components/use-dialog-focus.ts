import { type RefObject, useEffect, useRef } from "react";

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The dialogs open now, the last opened on top: only the top one answers keys. */
const open_dialogs: object[] = [];

/**
 * Keyboard behaviour of a modal dialog or panel while `open`: focus moves in (to
 * `initialFocus`, else the first `[data-autofocus]`, else the panel), Tab and Shift+Tab go
 * round inside it, Escape calls `onEscape` (when given) wherever focus is, and on closing
 * focus goes back to where it was (the button that opened it). A dialog opened over another
 * (a step-up check over a form) takes the keys until it closes.
 */
export function useDialogFocus(
  open: boolean,
  panelRef: RefObject<HTMLElement | null>,
  options: { onEscape?: (() => void) | null; initialFocus?: RefObject<HTMLElement | null> } = {},
): void {
  // The latest callbacks without re-running the effect (which would move focus again).
  const escapeRef = useRef(options.onEscape);
  escapeRef.current = options.onEscape;
  const initialFocus = options.initialFocus;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    const first = initialFocus?.current ?? panel?.querySelector<HTMLElement>("[data-autofocus]");
    (first ?? panel)?.focus();
    const self = {};
    open_dialogs.push(self);

    const onKeyDown = (event: KeyboardEvent) => {
      if (open_dialogs[open_dialogs.length - 1] !== self) return;
      if (event.key === "Escape" && escapeRef.current) {
        escapeRef.current();
        return;
      }
      if (event.key !== "Tab" || !panel) return;
      // Controls hidden at this size (display: none) cannot take focus; they are skipped.
      const items = [...panel.querySelectorAll<HTMLElement>(focusable)].filter(
        (item) => item.checkVisibility?.() ?? true,
      );
      const head = items[0];
      const tail = items[items.length - 1];
      if (!head || !tail) {
        event.preventDefault();
        return;
      }
      const inside = panel.contains(document.activeElement);
      if (event.shiftKey && (!inside || document.activeElement === head)) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && (!inside || document.activeElement === tail)) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      open_dialogs.splice(open_dialogs.indexOf(self), 1);
      if (previous?.isConnected) previous.focus();
    };
  }, [open, panelRef, initialFocus]);
}
