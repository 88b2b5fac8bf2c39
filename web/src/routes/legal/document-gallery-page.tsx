import type { GalleryName } from "@tp/domain/market-info";
import { Link } from "react-router";
import { PublicPage } from "../../components/public-page.tsx";
import { paths } from "../../paths.ts";
import { DocumentGallery } from "./document-gallery.tsx";

/**
 * /confirmation and /financial-statement (SPEC §2): image galleries of the documents the
 * operator publishes in the content folder (PRODUCT.md D6).
 */
export function DocumentGalleryPage({ title, gallery }: { title: string; gallery: GalleryName }) {
  return (
    <PublicPage title={title} intro="Documents published by the operator.">
      <DocumentGallery name={gallery} label={title} />
      <p className="mt-8 text-center text-sm">
        <Link
          to={paths.legalDocuments}
          className="font-semibold text-brand-600 hover:underline dark:text-brand-400"
        >
          Back to legal documents
        </Link>
      </p>
    </PublicPage>
  );
}
