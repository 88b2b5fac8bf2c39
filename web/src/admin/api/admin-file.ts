import { queryOptions } from "@tanstack/react-query";
import { API_BASE_PATH } from "@tp/domain/paths";
import { failureFrom } from "../../api/client.ts";
import { readStorage, storageKeys } from "../../storage.ts";

/** Receipts and identity documents are at most 10 MB; a slow link still gets a minute. */
export const file_timeout_ms = 60_000;

/**
 * An uploaded file (receipt, identity document) as a Blob. The server sends it as an
 * attachment and only with the bearer token, so a plain <img src> or link cannot show it:
 * it is fetched here and shown through an object URL. Failures carry the server's message.
 */
export async function fetchAdminFile(path: string, signal?: AbortSignal): Promise<Blob> {
  const token = readStorage(storageKeys.token);
  const timeout = AbortSignal.timeout(file_timeout_ms);
  const response = await globalThis.fetch(`${API_BASE_PATH}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal: signal ? anySignal(signal, timeout) : timeout,
  });
  if (!response.ok) {
    let payload: unknown = null;
    try {
      payload = await response.json();
    } catch {
      // Not JSON (a proxy's page): the status alone tells what happened.
    }
    // Same error as every other call: the server's message and its code.
    throw failureFrom(response.status, payload);
  }
  return response.blob();
}

function anySignal(first: AbortSignal, second: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const forward = (signal: AbortSignal) => () => controller.abort(signal.reason);
  for (const signal of [first, second]) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", forward(signal), { once: true });
  }
  return controller.signal;
}

export function adminFileQuery(path: string) {
  return queryOptions({
    // Outside the admin root key: refreshing the queues after an action need not refetch files.
    queryKey: ["admin-file", path],
    queryFn: ({ signal }) => fetchAdminFile(path, signal),
    // A stored upload never changes; keep only the one on screen (they can be 10 MB).
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}
