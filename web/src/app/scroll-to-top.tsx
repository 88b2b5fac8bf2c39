import { useEffect } from "react";
import { useLocation } from "react-router";

/**
 * SPEC §2: scroll resets to the top on every route change; a link with a #fragment (e.g.
 * "Inactive — verify your identity" to the Security page's ID verification) goes there.
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    // jsdom has no scrollIntoView; a browser always does.
    if (target && typeof target.scrollIntoView === "function") {
      target.scrollIntoView({ block: "start" });
      return;
    }
    if (pathname) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
