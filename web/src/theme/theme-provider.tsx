import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { readStorage, storageKeys, writeStorage } from "../storage.ts";
import { type Theme, ThemeContext, type ThemeState } from "./theme-context.ts";

/** SPEC §2: dark or light, stored under the key `theme`, default light. */
export const default_theme: Theme = "light";

function parseTheme(value: string | null): Theme {
  return value === "dark" ? "dark" : default_theme;
}

/**
 * Puts the class `dark` on <html> (Tailwind's dark variant keys on it) and keeps the choice
 * in localStorage; a change made in another tab is followed here too.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(() => parseTheme(readStorage(storageKeys.theme)));

  useEffect(() => {
    document.documentElement.classList.toggle("dark", theme === "dark");
  }, [theme]);

  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.key === storageKeys.theme) setThemeState(parseTheme(event.newValue));
    };
    window.addEventListener("storage", follow);
    return () => window.removeEventListener("storage", follow);
  }, []);

  const setTheme = useCallback((next: Theme) => {
    writeStorage(storageKeys.theme, next);
    setThemeState(next);
  }, []);

  const toggleTheme = useCallback(() => {
    setTheme(theme === "dark" ? "light" : "dark");
  }, [theme, setTheme]);

  const state = useMemo<ThemeState>(
    () => ({ theme, setTheme, toggleTheme }),
    [theme, setTheme, toggleTheme],
  );
  return <ThemeContext value={state}>{children}</ThemeContext>;
}
