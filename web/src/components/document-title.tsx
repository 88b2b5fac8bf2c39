import { app_name } from "../brand.ts";

/** The browser tab's title; React 19 hoists a rendered <title> into <head>. */
export function DocumentTitle({ title }: { title?: string }) {
  return <title>{title ? `${title} · ${app_name}` : app_name}</title>;
}
