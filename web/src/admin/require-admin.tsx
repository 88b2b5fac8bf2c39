import { isStaffRole } from "@tp/domain/roles";
import { Navigate, Outlet, useLocation } from "react-router";
import { useAuth } from "../auth/auth-context.ts";
import { LoadingScreen } from "../components/loading-screen.tsx";
import { paths } from "../paths.ts";
import { NotFoundPage } from "../shell/not-found-page.tsx";
import { PublicFrame } from "../shell/public-frame.tsx";

/**
 * The 404 page exactly as an unknown address shows it (the public pages' frame): a trader who
 * opens /admin learns nothing about the back office, not even that it exists.
 */
export function HiddenAdminPage() {
  return (
    <PublicFrame>
      <NotFoundPage />
    </PublicFrame>
  );
}

/**
 * Guards /admin/*: GET /user says the session's role. Staff (support, reviewer, admin) get
 * the back office, each page hiding what the role cannot do (use-staff-role.ts); a signed-in
 * trader gets the 404 page; a visitor is sent to sign in like any other signed-in page.
 * (The server answers 403 to every admin call of a trader whatever this shows.)
 */
export function RequireAdmin() {
  const { isLoading, user, signedOutByChoice } = useAuth();
  const location = useLocation();
  if (isLoading) return <LoadingScreen />;
  if (user === null) {
    const state = signedOutByChoice ? null : { from: location.pathname };
    return <Navigate to={paths.signIn} replace state={state} />;
  }
  if (!isStaffRole(user.role)) return <HiddenAdminPage />;
  return <Outlet />;
}
