import type { SiteContent } from "@tp/domain/site-content";
import type { ReactNode } from "react";
import { useSiteContent } from "../api/site-content.ts";
import { Button } from "./button.tsx";
import { LoadingScreen } from "./loading-screen.tsx";

/** Renders a public page once its copy has arrived from GET /site-content. */
export function SiteContentGate({ children }: { children: (content: SiteContent) => ReactNode }) {
  const content = useSiteContent();
  if (content.data) return children(content.data);
  if (content.isError) {
    return (
      <div className="mx-auto flex max-w-md flex-1 flex-col items-center justify-center px-4 py-20 text-center">
        <p role="alert" className="text-base font-semibold">
          This page could not be loaded.
        </p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Please check your connection and try again.
        </p>
        <Button className="mt-5" onClick={() => content.refetch()} busy={content.isFetching}>
          Try again
        </Button>
      </div>
    );
  }
  return <LoadingScreen />;
}
