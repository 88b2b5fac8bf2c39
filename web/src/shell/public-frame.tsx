import type { ReactNode } from "react";
import { Footer } from "../components/footer.tsx";
import { PublicHeader } from "./public-header.tsx";

/**
 * The frame of the public pages: header, the page, footer. The app's public routes sit in it,
 * and so does the 404 that hides the back office from a trader (it must look the same).
 */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="flex flex-1 flex-col">
        {children}
      </main>
      <Footer />
    </div>
  );
}
