import { useTheme } from "../theme/theme-context.ts";
import { MoonIcon, SunIcon } from "./icons.tsx";

/** Switches dark and light; the name says what pressing it does. */
export function ThemeToggle({
  className = "",
  showLabel = false,
}: {
  className?: string;
  showLabel?: boolean;
}) {
  const { theme, toggleTheme } = useTheme();
  const label = theme === "dark" ? "Switch to light theme" : "Switch to dark theme";
  return (
    <button
      type="button"
      onClick={toggleTheme}
      aria-label={showLabel ? undefined : label}
      title={label}
      className={className}
    >
      {theme === "dark" ? <SunIcon /> : <MoonIcon />}
      {showLabel ? <span>Theme</span> : null}
    </button>
  );
}
