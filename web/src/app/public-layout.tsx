import { Outlet } from "react-router";
import { Footer } from "../components/footer.tsx";
import { PublicHeader } from "./public-header.tsx";

export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
