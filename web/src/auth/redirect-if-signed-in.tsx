import { isStaffRole } from "@tp/domain/roles";
import { Navigate, Outlet, useLocation } from "react-router";
import { LoadingScreen } from "../components/loading-screen.tsx";
import { paths } from "../paths.ts";
import { useAuth } from "./auth-context.ts";

/**
 * The signed-in page RequireAuth sent the visitor away from, if any: only a /user or an
 * /admin page (the admin area shows its own 404 to traders), never an outside address.
 */
function returnPath(state: unknown): string | null {
  if (typeof state !== "object" || state === null || !("from" in state)) return null;
  const from = state.from;
  if (typeof from !== "string") return null;
  const inside = [paths.user.root, paths.admin.root].some(
    (root) => from === root || from.startsWith(`${root}/`),
  );
  return inside ? from : null;
}

/**
 * SPEC §2: sign-in redirects to /user/dashboard when the trader is already signed in —
 * or, right after signing in, back to the /user page that asked for it. Staff are not
 * traders (issue 12): without a page to return to, they land in the back office.
 */
export function RedirectIfSignedIn() {
  const { isLoading, user } = useAuth();
  const location = useLocation();
  if (isLoading) return <LoadingScreen />;
  if (user !== null) {
    const home = isStaffRole(user.role) ? paths.admin.root : paths.user.dashboard;
    return <Navigate to={returnPath(location.state) ?? home} replace />;
  }
  return <Outlet />;
}
