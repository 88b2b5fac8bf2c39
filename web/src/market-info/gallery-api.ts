import { useQuery } from "@tanstack/react-query";
import {
  type GalleryListing,
  type GalleryName,
  galleryListingSchema,
} from "@tp/domain/market-info";
import { apiRequest } from "../api/client.ts";

/** The operator adds documents rarely; a page view does not need a fresh list. */
export const gallery_stale_ms = 5 * 60_000;

export function galleryQueryKey(name: GalleryName) {
  return ["site-content", "gallery", name] as const;
}

/** GET /site-content/galleries/{name} (PRODUCT.md D6): the images in the content folder. */
export async function fetchGallery(
  name: GalleryName,
  signal?: AbortSignal,
): Promise<GalleryListing> {
  const reply = await apiRequest<unknown>(`/site-content/galleries/${name}`, { signal });
  const parsed = galleryListingSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The gallery reply does not match its schema");
  return parsed.data;
}

export function useGallery(name: GalleryName) {
  return useQuery({
    queryKey: galleryQueryKey(name),
    queryFn: ({ signal }) => fetchGallery(name, signal),
    staleTime: gallery_stale_ms,
  });
}
