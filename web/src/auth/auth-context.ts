import type { UserView } from "@tp/domain/api";
import { createContext, useContext } from "react";

export interface AuthState {
  /** The signed-in trader, or null (anonymous, or still checking a stored token). */
  user: UserView | null;
  token: string | null;
  /** True while a stored token is being checked against GET /user at start. */
  isLoading: boolean;
  isAuthenticated: boolean;
  /** Stores token and user after a successful POST /login. */
  login: (user: UserView, token: string) => void;
  /**
   * True after the trader pressed Logout (until the next sign-in): the guard then sends them
   * to sign-in without remembering the page they left, so the next sign-in, maybe someone
   * else's, starts on the dashboard.
   */
  signedOutByChoice: boolean;
  /** POST /logout (best effort), then forgets the user, the token and the stored user. */
  logout: () => Promise<void>;
}

export const AuthContext = createContext<AuthState | null>(null);

/** SPEC §4: using the auth facility outside its provider is an error. */
export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (state === null) throw new Error("useAuth must be used within an AuthProvider");
  return state;
}
