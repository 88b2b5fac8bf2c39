import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  adminListDataSchema,
  adminUserDetailSchema,
  adminUserSummarySchema,
} from "@tp/domain/admin-api";
import { signInHistoryDataSchema } from "@tp/domain/sessions-api";
import { adminGet, adminRootKey, queryString } from "./admin-request.ts";

export const user_page_size = 25;

const userListSchema = adminListDataSchema(adminUserSummarySchema);

/** GET /admin/users?q=: e-mail, username, names or the exact id. */
export function userSearchQuery(q: string, page: number) {
  return queryOptions({
    queryKey: [...adminRootKey, "users", { q, page }],
    queryFn: ({ signal }) =>
      adminGet(
        `/admin/users${queryString({ q, page, limit: user_page_size })}`,
        userListSchema,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /admin/users/{id}: balances, ledger, trades, funding, documents and sessions. */
export function userDetailQuery(id: number) {
  return queryOptions({
    queryKey: [...adminRootKey, "user", id],
    queryFn: ({ signal }) => adminGet(`/admin/users/${id}`, adminUserDetailSchema, signal),
  });
}

export function revokeSessionPath(userId: number, sessionId: number): string {
  return `/admin/users/${userId}/sessions/${sessionId}/revoke`;
}

export function revokeAllSessionsPath(userId: number): string {
  return `/admin/users/${userId}/sessions/revoke-all`;
}

export const sign_in_history_admin_page_size = 25;

/** GET /admin/users/{id}/sign-in-history: the user's sign-in attempts, newest first. */
export function userSignInHistoryQuery(id: number, page: number) {
  return queryOptions({
    queryKey: [...adminRootKey, "user", id, "sign-in-history", { page }],
    queryFn: ({ signal }) =>
      adminGet(
        `/admin/users/${id}/sign-in-history${queryString({ page, limit: sign_in_history_admin_page_size })}`,
        signInHistoryDataSchema,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}
