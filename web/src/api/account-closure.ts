import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type AccountClosure,
  accountClosureDataSchema,
  type RequestAccountClosure,
} from "@tp/domain/account-closure";
import { apiRequest } from "./client.ts";

export const accountClosureQueryKey = ["account", "closure"] as const;

function parseClosure(data: unknown): AccountClosure {
  const parsed = accountClosureDataSchema.safeParse(data);
  if (!parsed.success) throw new Error("The account closure reply does not match its schema");
  return parsed.data.closure;
}

/** GET /account/closure: open, closing (and what it waits for) or closed. */
export async function fetchAccountClosure(signal?: AbortSignal): Promise<AccountClosure> {
  return parseClosure((await apiRequest<unknown>("/account/closure", { signal })).data);
}

export function accountClosureQueryOptions() {
  return queryOptions({
    queryKey: accountClosureQueryKey,
    queryFn: ({ signal }) => fetchAccountClosure(signal),
  });
}

/** POST /account/closure with the password; the reply's message says what happens next. */
export function useRequestAccountClosureMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: RequestAccountClosure) => {
      const reply = await apiRequest<unknown>("/account/closure", { method: "POST", body });
      return { message: reply.message, closure: parseClosure(reply.data) };
    },
    onSuccess: ({ closure }) => queryClient.setQueryData(accountClosureQueryKey, closure),
  });
}
