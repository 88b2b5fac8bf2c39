import { useQuery } from "@tanstack/react-query";
import { siteContentElementId } from "@tp/domain/app-shell";
import type { SiteContent } from "@tp/domain/site-content";
import { apiRequest } from "./client.ts";

export const siteContentQueryKey = ["site-content"] as const;

/** The operator edits the copy rarely; a page view does not need a fresh copy. */
export const site_content_stale_ms = 5 * 60_000;

/** GET /site-content: all copy and figures of the public pages (PRODUCT.md D6). */
export async function fetchSiteContent(signal?: AbortSignal): Promise<SiteContent> {
  // The schema (and zod with it) loads with the request, not with the app's first screen.
  const [reply, { siteContentSchema }] = await Promise.all([
    apiRequest<unknown>("/site-content", { signal }),
    import("@tp/domain/site-content"),
  ]);
  const parsed = siteContentSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The site content reply does not match its schema");
  return parsed.data;
}

/**
 * The copy the server wrote into the page it served (server/src/web/app-shell.ts): checked
 * against the schema there, at start, from the same content GET /site-content answers with.
 * Null without it (the dev server, a shell the service worker kept for offline use).
 */
export function embeddedSiteContent(): { content: SiteContent; readAtMs: number } | null {
  const text = document.getElementById(siteContentElementId)?.textContent;
  if (!text) return null;
  try {
    return { content: JSON.parse(text) as SiteContent, readAtMs: Date.now() };
  } catch {
    return null;
  }
}

/** Read once per page load: later renders and new query clients reuse it. */
let embedded: ReturnType<typeof embeddedSiteContent> | undefined;

export function useSiteContent() {
  embedded ??= embeddedSiteContent();
  return useQuery({
    queryKey: siteContentQueryKey,
    queryFn: ({ signal }) => fetchSiteContent(signal),
    staleTime: site_content_stale_ms,
    initialData: embedded?.content,
    initialDataUpdatedAt: embedded?.readAtMs,
  });
}
