import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { UserView } from "@tp/domain/api";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { onUnauthorized } from "../api/client.ts";
import { logout as postLogout } from "../api/logout.ts";
import { userQueryKey, userQueryOptions } from "../api/user.ts";
import { paths } from "../paths.ts";
import { readStorage, removeStorage, storageKeys, writeStorage } from "../storage.ts";
import { AuthContext, type AuthState } from "./auth-context.ts";

/** Queries that hold nothing of the trader and survive a sign-out. */
const publicQueryRoots: ReadonlySet<unknown> = new Set(["site-content", "health"]);

/**
 * SPEC §4 "Authentication": a stored token is checked with GET /user at start; success
 * keeps the user, a reply without user or a failed call clears user, token and stored
 * user. Must sit inside the router: a 401 from any call signs out to the sign-in page.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [token, setToken] = useState(() => readStorage(storageKeys.token));
  const [isChecking, setIsChecking] = useState(() => token !== null);
  const [signedOutByChoice, setSignedOutByChoice] = useState(false);
  const userQuery = useQuery({ ...userQueryOptions(), enabled: token !== null });

  const clearSession = useCallback(() => {
    removeStorage(storageKeys.token);
    removeStorage(storageKeys.user);
    setToken(null);
    setIsChecking(false);
    queryClient.removeQueries({
      predicate: (query) => !publicQueryRoots.has(query.queryKey[0]),
    });
  }, [queryClient]);

  useEffect(() => {
    if (token === null) return;
    if (userQuery.isSuccess) {
      if (userQuery.data === null) {
        clearSession();
      } else {
        writeStorage(storageKeys.user, JSON.stringify(userQuery.data));
        setIsChecking(false);
      }
    } else if (userQuery.isError && isChecking) {
      // Only the start-up check signs out on any failure; later refetches keep the user
      // through a network blip (a 401 still signs out, through onUnauthorized below).
      clearSession();
    }
  }, [token, userQuery.isSuccess, userQuery.isError, userQuery.data, isChecking, clearSession]);

  useEffect(
    () =>
      onUnauthorized(() => {
        clearSession();
        navigate(paths.signIn, { replace: true });
      }),
    [clearSession, navigate],
  );

  const login = useCallback(
    (user: UserView, nextToken: string) => {
      writeStorage(storageKeys.token, nextToken);
      writeStorage(storageKeys.user, JSON.stringify(user));
      queryClient.setQueryData(userQueryKey, user);
      setToken(nextToken);
      setIsChecking(false);
      setSignedOutByChoice(false);
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    try {
      await postLogout();
    } catch {
      // Best effort: the local session ends whatever the server answered.
    } finally {
      setSignedOutByChoice(true);
      clearSession();
    }
  }, [clearSession]);

  const user = token === null ? null : (userQuery.data ?? null);
  const state = useMemo<AuthState>(
    () => ({
      user,
      token,
      isLoading: isChecking,
      isAuthenticated: user !== null,
      signedOutByChoice,
      login,
      logout,
    }),
    [user, token, isChecking, signedOutByChoice, login, logout],
  );

  return <AuthContext value={state}>{children}</AuthContext>;
}
