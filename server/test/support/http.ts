/** A tiny HTTP client for tests: real requests, raw status and parsed JSON. */
export interface HttpReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test replies are inspected field by field
  body: any;
  text: string;
}

export function httpClient(baseUrl: string) {
  async function request(
    method: string,
    path: string,
    options: {
      json?: unknown;
      token?: string;
      headers?: Record<string, string>;
      rawBody?: string;
    } = {},
  ): Promise<HttpReply> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.json !== undefined) {
      headers["content-type"] ??= "application/json";
      body = JSON.stringify(options.json);
    } else if (options.rawBody !== undefined) {
      body = options.rawBody;
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
  return {
    request,
    get: (path: string, token?: string) => request("GET", path, { token }),
    post: (path: string, json?: unknown, token?: string) => request("POST", path, { json, token }),
    put: (path: string, json?: unknown, token?: string) => request("PUT", path, { json, token }),
  };
}

let sequence = 0;

/** A valid sign-up body with a unique e-mail. */
export function newTrader(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  const email = `trader${sequence}.${Date.now().toString(36)}@example.test`;
  return {
    first_name: "Ada",
    last_name: "Lovelace",
    email,
    // Not "Secret123": that one is in the common-password list the server refuses.
    password: "Lovelace1843",
    password_confirmation: "Lovelace1843",
    country: "United Kingdom",
    phone_number: "+44 20 7946 0958",
    referral_code: "",
    accept_terms: true,
    ...overrides,
  };
}
