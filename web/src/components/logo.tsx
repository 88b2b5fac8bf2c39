import { app_name } from "../brand.ts";

/** The logo at its spec size, 144×24 (SPEC §9). `tone` picks the wordmark colour. */
export function Logo({ tone = "light" }: { tone?: "light" | "dark" }) {
  const word = tone === "light" ? "#ffffff" : "#0b1730";
  return (
    <svg
      width="144"
      height="24"
      viewBox="0 0 144 24"
      role="img"
      aria-label={app_name}
      className={tone === "dark" ? "dark:[&_text]:fill-white" : undefined}
    >
      <rect width="24" height="24" rx="6" fill="#2563eb" />
      <path
        d="M5 16.5l4.5-4.5 3 3L19 8.5"
        fill="none"
        stroke="#ffffff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="19" cy="8.5" r="1.9" fill="#fb7185" />
      <text
        x="31"
        y="17.5"
        fill={word}
        fontSize="16"
        fontWeight="700"
        fontFamily="ui-sans-serif, system-ui, sans-serif"
        textLength="112"
        lengthAdjust="spacingAndGlyphs"
      >
        {app_name}
      </text>
    </svg>
  );
}
