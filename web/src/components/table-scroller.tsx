import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * The sideways scroller around a wide table. While the table is wider than the screen the
 * scroller is a named group in the tab order, so a keyboard user can focus it and scroll
 * with the arrow keys (a table of plain text has nothing else to focus); when the table
 * fits, it is a plain box and adds no tab stop.
 */
export function TableScroller({
  label,
  className = "-mx-1 px-1",
  children,
}: {
  /** What the region is called when it scrolls: the table's caption. */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);

  // A group, not a region: the table's own section is usually the region of that name, and
  // two regions of one name would make landmark navigation ambiguous. Unnamed (while the
  // table fits) a group is passed over by screen readers.
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <fieldset> is for form controls; this groups a table
    <div
      ref={ref}
      role="group"
      aria-label={scrolls ? label : undefined}
      tabIndex={scrolls ? 0 : undefined}
      className={`overflow-x-auto ${className}`}
    >
      {children}
    </div>
  );
}
