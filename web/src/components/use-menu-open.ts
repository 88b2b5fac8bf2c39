import { useCallback, useState } from "react";
import { useLocation } from "react-router";

/**
 * A menu's open state that a followed link closes: the menu is open only on the page it was
 * opened on. Derived during render, not reset by an effect on the pathname: such an effect
 * runs once after mounting too, and a click landing before it ran (a fast user, a test) had
 * its "open" undone by that late "close".
 */
export function useMenuOpen(): [boolean, (open: boolean) => void] {
  const { pathname } = useLocation();
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const setOpen = useCallback((open: boolean) => setOpenedOn(open ? pathname : null), [pathname]);
  return [openedOn === pathname, setOpen];
}
