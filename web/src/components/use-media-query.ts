import { useSyncExternalStore } from "react";

/**
 * Whether a CSS media query matches now, following changes. For layouts that differ in
 * their markup, not only their styles (a table on wide screens, cards on narrow ones).
 * Without matchMedia (jsdom) it answers `fallback`.
 */
export function useMediaQuery(query: string, fallback = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== "function") return () => {};
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => (typeof window.matchMedia === "function" ? window.matchMedia(query).matches : fallback),
  );
}

/** Below Tailwind's `sm` (640 px): phones, where tables give way to cards. */
export const narrow_screen_query = "(max-width: 639.98px)";
