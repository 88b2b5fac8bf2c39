import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { paths } from "../paths.ts";
import { useAuth } from "./auth-context.ts";

/** The LOGOUT buttons: end the session, then show the sign-in page. */
export function useSignOut() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [isSigningOut, setIsSigningOut] = useState(false);
  const signOut = useCallback(async () => {
    setIsSigningOut(true);
    try {
      await logout();
    } finally {
      setIsSigningOut(false);
      navigate(paths.signIn, { replace: true });
    }
  }, [logout, navigate]);
  return { signOut, isSigningOut };
}
