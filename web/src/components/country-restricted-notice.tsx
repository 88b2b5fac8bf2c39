import { useCountryRestricted } from "../api/restricted-countries.ts";

/**
 * Restricted countries (issue 14 item 4): a note for a trader whose declared `country` is
 * on the operator's list, saying what is off and why (the server refuses either way).
 * Nothing for anyone else, nor while the list loads.
 */
export function CountryRestrictedNotice({
  country,
  label,
  text,
  className = "",
}: {
  country: string | undefined;
  label: string;
  text: (country: string) => string;
  className?: string;
}) {
  const restricted = useCountryRestricted(country);
  if (!restricted || country === undefined) return null;
  return (
    <div
      role="note"
      aria-label={label}
      className={`rounded-xl border border-amber-400/50 bg-amber-50 px-4 py-3 text-sm font-semibold text-amber-950 dark:bg-amber-400/10 dark:text-amber-100 ${className}`}
    >
      {text(country)}
    </div>
  );
}
