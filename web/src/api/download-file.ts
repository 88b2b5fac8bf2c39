import { readStorage, storageKeys } from "../storage.ts";
import { failureFrom, fetchFromApi } from "./client.ts";

/** A statement over five years or a full export takes a while to build: two minutes. */
export const download_timeout_ms = 120_000;

/** The file name of a Content-Disposition header, or `fallback`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(disposition ?? "");
  return match?.[1] ?? fallback;
}

/**
 * Downloads `/api/v1{path}` as a file (statements, the data export, staff exports). The
 * server sends it only with the bearer token, so a plain link cannot fetch it: it is
 * fetched here and saved through an object URL under the server's file name. A refusal
 * throws the server's ApiError (its message and field errors), as every other call does.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<string> {
  const token = readStorage(storageKeys.token);
  const response = await fetchFromApi(path, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(download_timeout_ms),
  });
  if (!response.ok) {
    let payload: unknown = null;
    try {
      payload = await response.json();
    } catch {
      // Not JSON (a proxy's page): the status alone tells what happened.
    }
    throw failureFrom(response.status, payload);
  }
  const name = fileNameOf(response.headers.get("content-disposition"), fallbackName);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    link.rel = "noopener";
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the browser's download; the URL is no longer needed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return name;
}
