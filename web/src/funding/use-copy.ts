import { useCallback, useEffect, useRef, useState } from "react";
import toast from "react-hot-toast/headless";

/** SPEC §9: the copied notice (and the icon that shows it) lasts 2 s. */
export const copied_notice_ms = 2_000;

/**
 * Copies text to the clipboard and says so with `message`; `copied` is true for 2 s, for
 * the icon change. Without a clipboard (an insecure origin) the text is left selectable.
 */
export function useCopy(message: string) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const copy = useCallback(
    async (text: string) => {
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        toast.error("Copying is not available here: select the text and copy it by hand.");
        return;
      }
      toast.success(message, { duration: copied_notice_ms });
      setCopied(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), copied_notice_ms);
    },
    [message],
  );
  return { copied, copy };
}
