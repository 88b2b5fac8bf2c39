import { useEffect } from "react";
import { useLocation } from "react-router";

/** SPEC §2: scroll resets to the top on every route change. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    // The effect must run on each new path; reading it here says so to the linter.
    if (pathname) window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
