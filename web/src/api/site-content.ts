import { useQuery } from "@tanstack/react-query";
import { type SiteContent, siteContentSchema } from "@tp/domain/site-content";
import { apiRequest } from "./client.ts";

export const siteContentQueryKey = ["site-content"] as const;

/** The operator edits the copy rarely; a page view does not need a fresh copy. */
export const site_content_stale_ms = 5 * 60_000;

/** GET /site-content: all copy and figures of the public pages (PRODUCT.md D6). */
export async function fetchSiteContent(signal?: AbortSignal): Promise<SiteContent> {
  const reply = await apiRequest<unknown>("/site-content", { signal });
  const parsed = siteContentSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The site content reply does not match its schema");
  return parsed.data;
}

export function useSiteContent() {
  return useQuery({
    queryKey: siteContentQueryKey,
    queryFn: ({ signal }) => fetchSiteContent(signal),
    staleTime: site_content_stale_ms,
  });
}
