import { Outlet } from "react-router";
import { AuthProvider } from "../auth/auth-provider.tsx";
import { SimulatedRealBanner } from "../components/simulated-real-banner.tsx";
import { Toaster } from "../components/toaster.tsx";
import { StepUpDialogHost } from "../two-factor/step-up-dialog.tsx";
import { ScrollToTop } from "./scroll-to-top.tsx";

/** The top route: auth lives inside the router so a 401 can navigate to sign-in. */
export function RootLayout() {
  return (
    <AuthProvider>
      <a
        href="#main"
        className="sr-only z-[110] rounded-lg bg-white px-4 py-2 text-sm font-semibold text-navy-900 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <ScrollToTop />
      <SimulatedRealBanner />
      <Outlet />
      <StepUpDialogHost />
      <Toaster />
    </AuthProvider>
  );
}
