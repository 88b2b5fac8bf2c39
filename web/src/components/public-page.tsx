import type { ReactNode } from "react";
import { DocumentTitle } from "./document-title.tsx";

/** A public content page: a navy title band, then the page body on the page colour. */
export function PublicPage({
  title,
  intro,
  children,
  width = "max-w-5xl",
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  width?: string;
}) {
  return (
    <>
      <DocumentTitle title={title} />
      <div className="bg-gradient-to-b from-navy-950 to-navy-900 text-white">
        <div className={`mx-auto ${width} px-4 py-12 sm:px-6 sm:py-16 lg:px-8`}>
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
          {intro ? (
            <div className="mt-3 max-w-3xl text-base text-navy-200 sm:text-lg">{intro}</div>
          ) : null}
        </div>
      </div>
      <div className={`mx-auto w-full ${width} px-4 py-10 sm:px-6 sm:py-14 lg:px-8`}>
        {children}
      </div>
    </>
  );
}
