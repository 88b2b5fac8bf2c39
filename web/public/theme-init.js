// Applies the stored theme before the app renders, so a dark-theme user sees no white flash.
// Same key and values as web/src/theme/theme-provider.tsx.
try {
  if (window.localStorage.getItem("theme") === "dark") {
    document.documentElement.classList.add("dark");
  }
} catch {
  // Storage can be blocked (private mode); the app then starts in the default light theme.
}
