import { Navigate, Outlet, useLocation } from "react-router";
import { LoadingScreen } from "../components/loading-screen.tsx";
import { paths } from "../paths.ts";
import { useAuth } from "./auth-context.ts";

/** Guards /user/*: anonymous visitors go to sign-in, with Loading while the check runs. */
export function RequireAuth() {
  const { isLoading, user, signedOutByChoice } = useAuth();
  const location = useLocation();
  if (isLoading) return <LoadingScreen />;
  if (user === null) {
    const state = signedOutByChoice ? null : { from: location.pathname };
    return <Navigate to={paths.signIn} replace state={state} />;
  }
  return <Outlet />;
}
