import { useEffect, useRef } from "react";
import { NavLink } from "react-router";

/** Tabs between sibling pages (deposit ↔ withdraw, statements, personal data ↔ security). */
export function SectionTabs({
  label,
  tabs,
}: {
  label: string;
  tabs: readonly { to: string; label: string }[];
}) {
  const navRef = useRef<HTMLElement>(null);
  // On a phone the tabs may not all fit: the current one is scrolled into the strip's view
  // (the strip only, never the page). Each page has its own tabs: once, when they appear.
  useEffect(() => {
    const nav = navRef.current;
    const active = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !active) return;
    const strip = nav.getBoundingClientRect();
    const tab = active.getBoundingClientRect();
    if (tab.right > strip.right) nav.scrollLeft += tab.right - strip.right + 4;
    else if (tab.left < strip.left) nav.scrollLeft -= strip.left - tab.left + 4;
  }, []);
  return (
    <nav
      ref={navRef}
      aria-label={label}
      className="mb-6 flex gap-1 overflow-x-auto rounded-xl bg-slate-200/60 p-1 dark:bg-navy-900"
    >
      {tabs.map((tab) => (
        <NavLink
          key={tab.to}
          to={tab.to}
          end
          className={({ isActive }) =>
            `flex-1 whitespace-nowrap rounded-lg px-4 py-2 text-center text-sm font-semibold transition-colors ${
              isActive
                ? "bg-white text-navy-900 shadow-sm dark:bg-navy-700 dark:text-white"
                : "text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
            }`
          }
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
