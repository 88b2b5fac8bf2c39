import { useSyncExternalStore } from "react";
import { readStorage, storageKeys } from "../storage.ts";
import type { Theme } from "./theme-context.ts";

/**
 * The theme a canvas should be painted in (SPEC §4 "Chart"): the class `dark` on <html>
 * where the page has one, else the stored choice. Canvas colours are not CSS, so the chart
 * has to be told: this follows class changes on <html> (a MutationObserver, whoever makes
 * them) and storage events (another tab switching the theme).
 */
export function readDocumentTheme(): Theme {
  const root = document.documentElement;
  if (root.classList.contains("dark")) return "dark";
  // Before the app has put its class on <html> the stored choice is the best answer.
  if (!root.classList.contains("light") && root.className === "") {
    return readStorage(storageKeys.theme) === "dark" ? "dark" : "light";
  }
  return "light";
}

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === storageKeys.theme) onChange();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    observer.disconnect();
    window.removeEventListener("storage", onStorage);
  };
}

export function useDocumentTheme(): Theme {
  return useSyncExternalStore(subscribe, readDocumentTheme);
}
