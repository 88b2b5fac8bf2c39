import type { ApiFailure, ApiSuccess } from "@tp/domain/api";
import { type ErrorCode, errorCodes } from "@tp/domain/error-codes";
import { API_BASE_PATH } from "@tp/domain/paths";
import type { FieldErrors } from "@tp/domain/validation";
import { readStorage, storageKeys } from "../storage.ts";
import {
  reportRequestAnswered,
  reportRequestFailed,
  resetRequestHealth,
} from "./request-health.ts";

/** A request that has not answered by then is abandoned, so no button spins forever. */
export const request_timeout_ms = 30_000;

export interface ApiClientConfig {
  /** `/api/v1` in the app (same origin, proxied by Vite in development). */
  baseUrl: string;
  /** The transport; tests hand in their own to answer without a server. */
  fetch: (input: string, init: RequestInit) => Promise<Response>;
}

const defaultConfig: ApiClientConfig = {
  baseUrl: API_BASE_PATH,
  // Looked up at call time, not bound once, so a replaced global fetch is honoured.
  fetch: (input, init) => globalThis.fetch(input, init),
};

let config: ApiClientConfig = defaultConfig;

export function configureApiClient(next: Partial<ApiClientConfig>): void {
  config = { ...config, ...next };
}

export function resetApiClient(): void {
  config = defaultConfig;
  resetRequestHealth();
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * Called when the server answers 401 to a request that carried a token: the session was
 * revoked or expired (PRODUCT.md D11), so the app signs out. Returns the unsubscribe.
 */
export function onUnauthorized(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

/** A reply of the API that is not a success envelope: HTTP status, message, field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | null;
  readonly errors: FieldErrors;
  /** The server's own text, or null when the reply carried none (a proxy's HTML page). */
  readonly serverMessage: string | null;

  constructor(
    status: number,
    serverMessage: string | null,
    code: ErrorCode | null,
    errors: FieldErrors,
  ) {
    super(serverMessage ?? `Request failed with HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.serverMessage = serverMessage;
  }
}

/**
 * The text to show a trader for a failed call: the server's message when it answered a
 * client error (4xx, or an "error" envelope), else the caller's fallback. A 5xx says only
 * "Internal Server Error", and a network failure says nothing a trader can act on.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage && error.status < 500) {
    return error.serverMessage;
  }
  return fallback;
}

/** Field → messages of a 422/409 reply; empty for any other failure. */
export function fieldErrorsOf(error: unknown): FieldErrors {
  return error instanceof ApiError ? error.errors : {};
}

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface RequestOptions {
  method?: HttpMethod;
  /** JSON, or a FormData sent as multipart/form-data (uploads). */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, e.g. Idempotency-Key on a money-moving call. */
  headers?: Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const errorCodeSet: ReadonlySet<string> = new Set(errorCodes);

function fieldErrorsFrom(value: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (!isRecord(value)) return errors;
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) {
      const texts = messages.filter((message): message is string => typeof message === "string");
      if (texts.length > 0) errors[field] = texts;
    } else if (typeof messages === "string") {
      errors[field] = [messages];
    }
  }
  return errors;
}

/** The ApiError of a failed reply's status and parsed body (code, message, field errors). */
export function failureFrom(status: number, payload: unknown): ApiError {
  if (!isRecord(payload)) return new ApiError(status, null, null, {});
  const failure = payload as Partial<ApiFailure>;
  const message =
    typeof failure.message === "string" && failure.message.length > 0 ? failure.message : null;
  const code =
    typeof failure.code === "string" && errorCodeSet.has(failure.code) ? failure.code : null;
  return new ApiError(status, message, code, fieldErrorsFrom(failure.errors));
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** One abort signal for the caller's cancel and the timeout (AbortSignal.any is too new). */
function withTimeout(signal: AbortSignal | undefined): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException("Timeout", "TimeoutError")),
    request_timeout_ms,
  );
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener("abort", forward, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", forward);
    },
  };
}

function headersFor(token: string | null, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (hasBody) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * Calls `/api/v1{path}` and returns the success envelope. Anything else throws: an ApiError
 * when the server answered (any status, or a 2xx whose envelope says "error"), the fetch's
 * own error when it did not.
 */
export async function apiRequest<T = undefined>(
  path: string,
  options: RequestOptions = {},
): Promise<ApiSuccess<T>> {
  try {
    return await sendRequest<T>(path, options);
  } catch (error) {
    // Step-up (issue 12): the shared "Confirm it is you" dialog, then the same call once more.
    if (
      error instanceof ApiError &&
      error.code === "STEP_UP_REQUIRED" &&
      stepUpHandler !== null &&
      (await stepUpHandler())
    ) {
      return sendRequest<T>(path, options);
    }
    throw error;
  }
}

type StepUpHandler = () => Promise<boolean>;
let stepUpHandler: StepUpHandler | null = null;

/**
 * Called when a call answers STEP_UP_REQUIRED: resolves true once the user confirmed it is
 * them (POST /step-up succeeded), false when they gave up; the call is then retried once.
 * One dialog (auth/step-up-dialog.tsx) registers it for every caller. Returns the unsubscribe.
 */
export function onStepUpRequired(handler: StepUpHandler): () => void {
  stepUpHandler = handler;
  return () => {
    if (stepUpHandler === handler) stepUpHandler = null;
  };
}

async function sendRequest<T>(path: string, options: RequestOptions): Promise<ApiSuccess<T>> {
  const token = readStorage(storageKeys.token);
  const hasBody = options.body !== undefined;
  // A FormData body goes as multipart/form-data: the browser writes the header (with its
  // boundary), so no Content-Type is set here.
  const isForm = typeof FormData !== "undefined" && options.body instanceof FormData;
  const timeout = withTimeout(options.signal);
  let response: Response;
  let payload: unknown;
  try {
    response = await config.fetch(`${config.baseUrl}${path}`, {
      method: options.method ?? "GET",
      headers: { ...headersFor(token, hasBody && !isForm), ...options.headers },
      body: isForm
        ? (options.body as FormData)
        : hasBody
          ? JSON.stringify(options.body)
          : undefined,
      signal: timeout.signal,
    });
    payload = await readJson(response);
  } catch (error) {
    // No answer: the network or the server is down, or it timed out. A caller's own
    // cancel (a query no longer needed) says nothing about the API.
    if (!options.signal?.aborted) reportRequestFailed(path, "unreachable");
    throw error;
  } finally {
    timeout.done();
  }
  const failure =
    response.ok && isRecord(payload) && payload.status === "success"
      ? null
      : failureFrom(response.status, payload);
  // A 5xx is our API failing, unless it relays a third-party provider's (market info).
  if (response.status >= 500 && failure?.code !== "PROVIDER_UNAVAILABLE") {
    reportRequestFailed(path, "server_error", response.status);
  } else {
    reportRequestAnswered(path);
  }
  if (failure === null) return payload as unknown as ApiSuccess<T>;
  if (response.status === 401 && token !== null) unauthorizedHandler?.();
  throw failure;
}

/**
 * `/api/v1{path}` through the client's base URL and transport, for a reply that is not the
 * JSON envelope (a download: api/download-file.ts). The caller reads the Response itself.
 */
export function fetchFromApi(path: string, init: RequestInit): Promise<Response> {
  return config.fetch(`${config.baseUrl}${path}`, init);
}

/** True when the API answers `path` with a 2xx, whatever the body (the status indicator). */
export async function apiReachable(path: string, signal?: AbortSignal): Promise<boolean> {
  const timeout = withTimeout(signal);
  try {
    const response = await config.fetch(`${config.baseUrl}${path}`, {
      method: "GET",
      headers: { Accept: "application/json" },
      signal: timeout.signal,
    });
    return response.ok;
  } catch {
    return false;
  } finally {
    timeout.done();
  }
}
