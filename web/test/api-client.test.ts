import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fetchAdminFile } from "../src/admin/api/admin-file.ts";
import {
  ApiError,
  apiRequest,
  configureApiClient,
  errorMessage,
  onUnauthorized,
} from "../src/api/client.ts";
import { retryDelay, shouldRetry } from "../src/app/query-client.ts";

/** A real HTTP server on 127.0.0.1: the client's bytes go over a socket, as in the browser. */
type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;
let handler: Handler = (_request, _body, response) => response.end();
let server: Server;
let seen: {
  method?: string;
  url?: string;
  authorization?: string;
  contentType?: string;
  body: string;
}[] = [];

function reply(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      seen.push({
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization,
        contentType: request.headers["content-type"],
        body,
      });
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function useServer(next: Handler) {
  const { port } = server.address() as AddressInfo;
  configureApiClient({ baseUrl: `http://127.0.0.1:${port}/api/v1` });
  seen = [];
  handler = next;
}

describe("API client over HTTP", () => {
  it("sends JSON with the stored bearer token and returns the success envelope", async () => {
    window.localStorage.setItem("token", "tok-1");
    useServer((_request, _body, response) =>
      reply(response, 200, { status: "success", message: "ok", data: { n: 1 } }),
    );
    const result = await apiRequest<{ n: number }>("/thing", { method: "POST", body: { a: 1 } });

    expect(result).toEqual({ status: "success", message: "ok", data: { n: 1 } });
    expect(seen).toEqual([
      {
        method: "POST",
        url: "/api/v1/thing",
        authorization: "Bearer tok-1",
        contentType: "application/json",
        body: '{"a":1}',
      },
    ]);
  });

  it("sends no Authorization header without a token", async () => {
    useServer((_request, _body, response) => reply(response, 200, { status: "success" }));
    await apiRequest("/thing");
    expect(seen[0]?.authorization).toBeUndefined();
  });

  it("throws an ApiError with status, message, code and field errors", async () => {
    useServer((_request, _body, response) =>
      reply(response, 422, {
        status: "error",
        message: "The given data was invalid",
        code: "VALIDATION_FAILED",
        errors: { email: ["Please enter a valid email address"] },
      }),
    );
    const error = await apiRequest("/register", { method: "POST", body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: "The given data was invalid",
      code: "VALIDATION_FAILED",
      errors: { email: ["Please enter a valid email address"] },
    });
  });

  it("treats a 200 reply whose status is error as a failure (SPEC §5 login)", async () => {
    useServer((_request, _body, response) =>
      reply(response, 200, { status: "error", message: "Nope" }),
    );
    await expect(apiRequest("/login", { method: "POST", body: {} })).rejects.toMatchObject({
      status: 200,
      message: "Nope",
    });
  });

  it("calls the 401 handler only when a token was sent", async () => {
    let signedOut = 0;
    const unsubscribe = onUnauthorized(() => {
      signedOut += 1;
    });
    useServer((_request, _body, response) =>
      reply(response, 401, { status: "error", message: "Unauthenticated" }),
    );
    await expect(apiRequest("/login", { method: "POST", body: {} })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(signedOut).toBe(0);

    window.localStorage.setItem("token", "expired");
    await expect(apiRequest("/user")).rejects.toBeInstanceOf(ApiError);
    expect(signedOut).toBe(1);
    unsubscribe();
  });

  it("uses the fallback text for 5xx and non-JSON replies", async () => {
    useServer((_request, _body, response) => {
      response.writeHead(502, { "Content-Type": "text/html" });
      response.end("<h1>Bad gateway</h1>");
    });
    const error = await apiRequest("/thing").catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(errorMessage(error, "Update failed")).toBe("Update failed");
    expect(errorMessage(new ApiError(500, "Internal Server Error", "INTERNAL", {}), "X")).toBe("X");
    expect(errorMessage(new ApiError(409, "Taken", "WITHDRAWAL_NOT_PENDING", {}), "X")).toBe(
      "Taken",
    );
    expect(errorMessage(new TypeError("Failed to fetch"), "X")).toBe("X");
  });
});

describe("query defaults (SPEC §7)", () => {
  it("retries network and server failures 3 times, never a 4xx", () => {
    const server500 = new ApiError(500, null, null, {});
    expect([0, 1, 2, 3].map((count) => shouldRetry(count, server500))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(shouldRetry(0, new TypeError("Failed to fetch"))).toBe(true);
    expect(shouldRetry(0, new ApiError(404, "Not found", "NOT_FOUND", {}))).toBe(false);
    expect(shouldRetry(0, new ApiError(429, "Slow down", "RATE_LIMITED", {}))).toBe(false);
  });

  it("backs off min(1000·2^n, 30000) ms", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
  });
});

describe("admin file downloads", () => {
  it("fail with the server's code and message, like every other call", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(
          JSON.stringify({ status: "error", code: "NOT_FOUND", message: "No receipt uploaded" }),
          { status: 404, headers: { "Content-Type": "application/json" } },
        ),
    );
    try {
      const error = await fetchAdminFile("/admin/deposits/12/receipt").catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 404,
        code: "NOT_FOUND",
        serverMessage: "No receipt uploaded",
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
