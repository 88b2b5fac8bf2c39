import { type FocusEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { NavLink, useLocation } from "react-router";
import { ChevronDownIcon } from "../../components/icons.tsx";
import type { NavItem } from "./nav-items.ts";

const topItemClass = (active: boolean) =>
  `inline-flex h-11 items-center gap-1 border-b-2 px-3 text-xs font-bold tracking-wider transition-colors ${
    active ? "border-brand-400 text-white" : "border-transparent text-navy-200 hover:text-white"
  }`;

export function navTopItemClass({ isActive }: { isActive: boolean }): string {
  return topItemClass(isActive);
}

/**
 * A secondary-nav item whose menu opens on hover (SPEC §2, pure CSS) and, for keyboard
 * and touch, on press; Escape, a click elsewhere or focus leaving the menu closes it.
 */
export function NavMenu({ label, items }: { label: string; items: readonly NavItem[] }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const active = items.some((item) => pathname.startsWith(item.to));

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOutside);
    return () => document.removeEventListener("pointerdown", closeOutside);
  }, [open]);

  const closeOnFocusOut = (event: FocusEvent) => {
    if (!containerRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
  };
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div ref={containerRef} className="group relative">
      <button
        ref={buttonRef}
        type="button"
        className={topItemClass(active)}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((current) => !current)}
        onKeyDown={closeOnEscape}
        onBlur={closeOnFocusOut}
      >
        {label}
        <ChevronDownIcon
          className={`size-3.5 transition-transform group-hover:rotate-180 ${open ? "rotate-180" : ""}`}
        />
      </button>
      <div
        id={menuId}
        className={`absolute left-0 top-full z-50 pt-1 ${open ? "block" : "hidden group-hover:block"}`}
      >
        <ul className="min-w-48 rounded-xl border border-slate-200 bg-white p-1.5 shadow-xl dark:border-navy-700 dark:bg-navy-800">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                onClick={() => setOpen(false)}
                onKeyDown={closeOnEscape}
                onBlur={closeOnFocusOut}
                className={({ isActive }) =>
                  `block rounded-lg px-3 py-2 text-sm font-medium transition-colors ${
                    isActive
                      ? "bg-brand-600/10 text-brand-700 dark:text-brand-400"
                      : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-navy-700"
                  }`
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
