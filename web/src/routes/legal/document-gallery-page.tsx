import { Link } from "react-router";
import { EmptyState } from "../../components/empty-state.tsx";
import { ImageIcon } from "../../components/icons.tsx";
import { PublicPage } from "../../components/public-page.tsx";
import { paths } from "../../paths.ts";

/**
 * /confirmation and /financial-statement (SPEC §2): image galleries of documents the
 * operator publishes. Until a later release publishes them, an honest empty state.
 */
export function DocumentGalleryPage({ title }: { title: string }) {
  return (
    <PublicPage title={title}>
      <EmptyState
        icon={<ImageIcon className="size-10" />}
        title="No documents published yet"
        text="Documents appear here once the operator publishes them."
      />
      <p className="mt-6 text-center text-sm">
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
