import type { ReactNode } from "react";
import { useSiteContent } from "../../api/site-content.ts";
import { app_name } from "../../brand.ts";
import { PublicPage } from "../../components/public-page.tsx";

export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** The company name of the legal copy: the operator's, or the product's until it loads. */
export function useCompanyName(): string {
  return useSiteContent().data?.company.name ?? app_name;
}

/** A legal page: sample text the operator replaces with its own, said so at the top. */
export function LegalText({
  title,
  sections,
}: {
  title: string;
  sections: readonly LegalSection[];
}) {
  return (
    <PublicPage title={title} width="max-w-3xl">
      <p className="mb-8 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200">
        This is sample legal text. The operator of this platform publishes its own binding version
        here.
      </p>
      <div className="flex flex-col gap-8">
        {sections.map((section, index) => (
          <section key={section.title}>
            <h2 className="text-lg font-semibold">
              {index + 1}. {section.title}
            </h2>
            <div className="mt-2 space-y-3 text-sm leading-relaxed text-slate-700 dark:text-slate-300">
              {section.body}
            </div>
          </section>
        ))}
      </div>
    </PublicPage>
  );
}
