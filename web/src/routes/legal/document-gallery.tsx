import type { GalleryImage, GalleryName } from "@tp/domain/market-info";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { ImageIcon, SpinnerIcon } from "../../components/icons.tsx";
import { useGallery } from "../../market-info/gallery-api.ts";

/** Only the server's own image paths are shown: a listing can never point the page elsewhere. */
function sameOriginPath(url: string): string | null {
  return url.startsWith("/") && !url.startsWith("//") ? url : null;
}

function GalleryTile({ image }: { image: GalleryImage }) {
  const src = sameOriginPath(image.url);
  if (src === null) return null;
  return (
    <li>
      <a
        href={src}
        target="_blank"
        rel="noopener"
        className="group block overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-colors hover:border-brand-500 dark:border-navy-700 dark:bg-navy-900"
      >
        <div className="aspect-[3/4] overflow-hidden bg-slate-100 dark:bg-navy-800">
          <img
            src={src}
            alt={image.title}
            loading="lazy"
            className="size-full object-contain transition-transform group-hover:scale-[1.02]"
          />
        </div>
        <p className="border-t border-slate-100 px-4 py-3 text-sm font-medium text-slate-800 first-letter:uppercase dark:border-navy-800 dark:text-slate-100">
          {image.title}
        </p>
      </a>
    </li>
  );
}

/**
 * The images the operator put in a gallery folder of the content directory (PRODUCT.md D6),
 * each opening full size in a new tab; an empty state when there are none.
 */
export function DocumentGallery({ name, label }: { name: GalleryName; label: string }) {
  const gallery = useGallery(name);
  if (gallery.isPending) {
    return (
      <div className="flex items-center justify-center gap-3 py-14 text-sm text-slate-600 dark:text-slate-400">
        <SpinnerIcon className="size-5 text-brand-600" />
        <span role="status">Loading...</span>
      </div>
    );
  }
  if (gallery.isError) {
    return (
      <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-navy-600">
        <p role="alert" className="font-semibold text-slate-800 dark:text-slate-100">
          The documents could not be loaded.
        </p>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
          Please check your connection and try again.
        </p>
        <Button
          variant="secondary"
          className="mt-4"
          onClick={() => void gallery.refetch()}
          busy={gallery.isFetching}
        >
          Try again
        </Button>
      </div>
    );
  }
  const images = gallery.data.images.filter((image) => sameOriginPath(image.url) !== null);
  if (images.length === 0) {
    return (
      <EmptyState
        icon={<ImageIcon className="size-10" />}
        title="No documents published yet"
        text="Documents appear here once the operator publishes them."
      />
    );
  }
  return (
    <ul aria-label={label} className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {images.map((image) => (
        <GalleryTile key={image.url} image={image} />
      ))}
    </ul>
  );
}
