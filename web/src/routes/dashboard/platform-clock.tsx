const clockFormat = new Intl.DateTimeFormat("en-US", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
  timeZoneName: "short",
});

/** SPEC §4: platform time, ticking every second (the caller's `now` renews each second). */
export function PlatformClock({ now }: { now: number }) {
  const date = new Date(now);
  return (
    <p className="text-right leading-tight">
      <span className="block text-[10px] uppercase tracking-wide text-slate-500 dark:text-slate-400">
        Platform time
      </span>
      <time
        dateTime={date.toISOString()}
        className="text-xs font-semibold tabular-nums text-slate-800 dark:text-slate-100"
      >
        {clockFormat.format(date)}
      </time>
    </p>
  );
}
