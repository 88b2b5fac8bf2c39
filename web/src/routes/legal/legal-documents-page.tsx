import { Link } from "react-router";
import { ArrowRightIcon, DocumentIcon } from "../../components/icons.tsx";
import { PublicPage } from "../../components/public-page.tsx";
import { paths } from "../../paths.ts";
import { DocumentGallery } from "./document-gallery.tsx";

const documents = [
  {
    to: paths.confirmation,
    title: "Confirmation statements",
    text: "Confirmation statements published by the operator.",
  },
  {
    to: paths.financialStatement,
    title: "Financial statements",
    text: "Financial statements published by the operator.",
  },
  {
    to: paths.termsOfService,
    title: "Terms of Service",
    text: "The terms that govern your account.",
  },
  {
    to: paths.privacyPolicy,
    title: "Privacy Policy",
    text: "How we collect and use personal data.",
  },
] as const;

export function LegalDocumentsPage() {
  return (
    <PublicPage
      title="Legal documents"
      intro="The documents that govern the platform and its operator."
    >
      <ul className="grid gap-4 sm:grid-cols-2">
        {documents.map((document) => (
          <li key={document.to}>
            <Link
              to={document.to}
              className="group flex h-full gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-colors hover:border-brand-500 dark:border-navy-700 dark:bg-navy-900"
            >
              <DocumentIcon className="size-6 shrink-0 text-brand-600 dark:text-brand-400" />
              <span className="flex-1">
                <span className="flex items-center gap-2 font-semibold">
                  {document.title}
                  <ArrowRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" />
                </span>
                <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">
                  {document.text}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <section aria-labelledby="published-documents-title" className="mt-14">
        <h2 id="published-documents-title" className="text-2xl font-bold tracking-tight">
          Published documents
        </h2>
        <div className="mt-6">
          <DocumentGallery name="legal-documents" label="Published documents" />
        </div>
      </section>
    </PublicPage>
  );
}
