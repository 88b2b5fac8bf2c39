import { useSyncExternalStore } from "react";

/**
 * Whether the API's recent answers are failing (issue 13): the status indicator showed
 * "Online" as long as the socket was up, even while every request failed. The client
 * reports each request's outcome here, per path: a path is failing once it failed
 * `request_failures_to_flag` times in a row within `request_failure_window_ms`; its next
 * success clears it, and so does the window passing without another failure.
 */
export type RequestFailure = "unreachable" | "server_error";

export interface RequestHealth {
  /** The worst current failure: "unreachable" (no answer at all) outranks a 5xx. */
  failure: RequestFailure | null;
  /** The HTTP status of the latest server error, for the reason shown. */
  lastStatus: number | null;
}

/** One failed request is often a blip (a retry follows); two in a row are a pattern. */
export const request_failures_to_flag = 2;
/** How long a failing path keeps the indicator showing it without failing again. */
export const request_failure_window_ms = 60_000;

interface PathFailures {
  count: number;
  failure: RequestFailure;
  status: number | null;
  atMs: number;
}

const healthy: RequestHealth = { failure: null, lastStatus: null };
let snapshot: RequestHealth = healthy;
const failingPaths = new Map<string, PathFailures>();
const timers = new Set<ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();

function recompute(): void {
  const nowMs = Date.now();
  let worst: PathFailures | null = null;
  for (const [path, entry] of failingPaths) {
    if (nowMs - entry.atMs >= request_failure_window_ms) {
      failingPaths.delete(path);
      continue;
    }
    if (entry.count < request_failures_to_flag) continue;
    if (
      worst === null ||
      (entry.failure === "unreachable" && worst.failure !== "unreachable") ||
      (entry.failure === worst.failure && entry.atMs > worst.atMs)
    ) {
      worst = entry;
    }
  }
  const next: RequestHealth =
    worst === null ? healthy : { failure: worst.failure, lastStatus: worst.status };
  if (next.failure === snapshot.failure && next.lastStatus === snapshot.lastStatus) return;
  snapshot = next;
  for (const listener of listeners) listener();
}

/** The path without its query: page 2 of a list is the same endpoint as page 1. */
function endpointOf(path: string): string {
  return path.split("?")[0] ?? path;
}

/** A request to `path` was answered (below 500: the API works, even when it refused). */
export function reportRequestAnswered(path: string): void {
  if (failingPaths.delete(endpointOf(path))) recompute();
}

/** A request to `path` failed: no answer at all, or a 5xx of our own API. */
export function reportRequestFailed(
  path: string,
  failure: RequestFailure,
  status: number | null = null,
): void {
  const endpoint = endpointOf(path);
  const previous = failingPaths.get(endpoint);
  failingPaths.set(endpoint, {
    count: (previous?.count ?? 0) + 1,
    failure,
    status,
    atMs: Date.now(),
  });
  recompute();
  // The window passing without another failure clears the path: look again then.
  const timer = setTimeout(() => {
    timers.delete(timer);
    recompute();
  }, request_failure_window_ms);
  timers.add(timer);
}

export function requestHealth(): RequestHealth {
  return snapshot;
}

export function subscribeRequestHealth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Back to healthy (tests, and a new API client configuration). */
export function resetRequestHealth(): void {
  failingPaths.clear();
  for (const timer of timers) clearTimeout(timer);
  timers.clear();
  snapshot = healthy;
  for (const listener of listeners) listener();
}

export function useRequestHealth(): RequestHealth {
  return useSyncExternalStore(subscribeRequestHealth, requestHealth, requestHealth);
}
