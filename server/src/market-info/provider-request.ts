/** Replies larger than this are refused: no provider reply we read comes close. */
export const provider_reply_bytes_max = 2 * 1024 * 1024;

/**
 * A provider could not give usable data: unreachable, too slow, an HTTP error, or a reply
 * not in its documented format. The detail is for the log; the trader sees a 503.
 */
export class ProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ProviderError";
  }
}

/**
 * GET a provider's JSON with a hard deadline covering connection, headers and body. Any
 * failure becomes a ProviderError naming the provider and what went wrong.
 */
export async function getProviderJson(
  provider: string,
  url: URL,
  options: { timeout_ms: number; headers?: Record<string, string> },
): Promise<unknown> {
  const signal = AbortSignal.timeout(options.timeout_ms);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json", ...options.headers },
      signal,
      redirect: "error",
    });
  } catch (error) {
    throw new ProviderError(`${provider}: ${describeFailure(error, options.timeout_ms)}`, {
      cause: error,
    });
  }
  let text: string;
  try {
    text = await readBounded(response, provider_reply_bytes_max);
  } catch (error) {
    throw new ProviderError(`${provider}: ${describeFailure(error, options.timeout_ms)}`, {
      cause: error,
    });
  }
  if (!response.ok) {
    throw new ProviderError(`${provider}: HTTP ${response.status} ${text.slice(0, 300)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError(`${provider}: reply is not JSON: ${text.slice(0, 120)}`);
  }
}

/** A provider's reply as bytes, with its status and declared content type. */
export interface ProviderBytes {
  status: number;
  content_type: string;
  bytes: Buffer;
}

/**
 * GET a provider's binary reply (a coin's logo) with the same deadline and no redirects,
 * refusing one over `bytes_max`. Any transport failure becomes a ProviderError; the status
 * is the caller's to judge.
 */
export async function getProviderBytes(
  provider: string,
  url: URL,
  options: { timeout_ms: number; bytes_max: number },
): Promise<ProviderBytes> {
  const signal = AbortSignal.timeout(options.timeout_ms);
  try {
    const response = await fetch(url, { signal, redirect: "error" });
    const bytes = await readBoundedBytes(response, options.bytes_max);
    return {
      status: response.status,
      content_type: (response.headers.get("content-type") ?? "")
        .split(";")[0]!
        .trim()
        .toLowerCase(),
      bytes,
    };
  } catch (error) {
    throw new ProviderError(`${provider}: ${describeFailure(error, options.timeout_ms)}`, {
      cause: error,
    });
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError" || error.name === "AbortError") {
      return `no reply within ${timeoutMs} ms`;
    }
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** The reply's body as text, refusing one over `bytesMax` (declared or streamed). */
export async function readBounded(response: Response, bytesMax: number): Promise<string> {
  return (await readBoundedBytes(response, bytesMax)).toString("utf8");
}

/** The reply's body, refusing one over `bytesMax` (declared or streamed). */
async function readBoundedBytes(response: Response, bytesMax: number): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > bytesMax) {
    await response.body?.cancel();
    throw new Error(`reply of ${declared} bytes is over ${bytesMax}`);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > bytesMax) {
      await reader.cancel();
      throw new Error(`reply is over ${bytesMax} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
