import { useEffect, useState } from "react";

/** The current time in epoch ms, renewed every `interval_ms` (countdowns, the platform clock). */
export function useNow(interval_ms = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), interval_ms);
    return () => clearInterval(timer);
  }, [interval_ms]);
  return now;
}
