import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiRequest } from "../../api/client.ts";
import { newIdempotencyKey } from "../../api/place-trade.ts";

/** Every admin query lives under this key: one invalidation refreshes the whole back office. */
export const adminRootKey = ["admin"] as const;

/** GET an admin endpoint and check its data against the contract's schema. */
export async function adminGet<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  signal?: AbortSignal,
): Promise<z.output<Schema>> {
  const reply = await apiRequest<unknown>(path, { signal });
  const parsed = schema.safeParse(reply.data);
  if (!parsed.success) throw new Error(`The reply of GET ${path} does not match its schema`);
  return parsed.data;
}

/** `?a=1&b=2` of the values that are set, or "" when none is. */
export function queryString(values: Record<string, string | number | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== "") query.set(key, String(value));
  }
  const text = query.toString();
  return text.length > 0 ? `?${text}` : "";
}

export interface AdminActionReply {
  /** The server's own message, shown as it is. */
  message: string | null;
}

export interface AdminAction {
  method: "POST" | "PUT" | "DELETE";
  path: string;
  body?: unknown;
}

/**
 * A staff action: sent with a fresh Idempotency-Key (a decision on money must not apply twice
 * when a request is retried), then every admin query is refetched so queues, counts and the
 * user pages show the new state. A failure refreshes too: a 409 means someone else decided.
 */
export function useAdminAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: AdminAction): Promise<AdminActionReply> => {
      const reply = await apiRequest<unknown>(action.path, {
        method: action.method,
        body: action.body,
        headers: { "Idempotency-Key": newIdempotencyKey() },
      });
      return { message: reply.message ?? null };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminRootKey }),
  });
}
