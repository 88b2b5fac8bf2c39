import { inputMessages, serverMessages } from "@tp/domain/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json_body_bytes_max } from "../src/app.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient, newTrader } from "./support/http.ts";

// Conventions of the HTTP edge do not depend on the database; PGlite is enough here.
describe("HTTP conventions", () => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform("pglite");
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  it("GET /api/v1/health reports the database", async () => {
    const reply = await http.get("/api/v1/health");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: "success",
      data: {
        status: "ok",
        database: "pglite",
        time: platform.clock.now().toISOString(),
        feeds_ingested: [],
        bus: "memory",
      },
    });
  });

  it("answers malformed JSON with 400 and the failure envelope", async () => {
    const reply = await http.request("POST", "/api/v1/login", {
      rawBody: '{"email": "a@b.c", ',
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      status: "error",
      message: serverMessages.malformedJson,
      code: "MALFORMED_REQUEST",
    });
  });

  it("refuses a body of 1 MB + 1 byte with 413 and writes nothing", async () => {
    const trader = newTrader();
    const padding = "x".repeat(json_body_bytes_max);
    const reply = await http.request("POST", "/api/v1/register", {
      rawBody: JSON.stringify({ ...trader, padding }).slice(0, json_body_bytes_max + 1),
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe("BODY_TOO_LARGE");
    const users = await platform.database.query("SELECT 1 FROM users WHERE email = $1", [
      trader.email,
    ]);
    expect(users.rowCount).toBe(0);
  });

  it("accepts a body just under the limit (the limit is the limit, not less)", async () => {
    const body = JSON.stringify({ email: "a@example.test", password: "Secret123", pad: "" });
    const padded = body.replace(
      '"pad":""',
      `"pad":"${"y".repeat(json_body_bytes_max - body.length)}"`,
    );
    expect(Buffer.byteLength(padded)).toBe(json_body_bytes_max);
    const reply = await http.request("POST", "/api/v1/login", {
      rawBody: padded,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(401);
  });

  it("refuses non-JSON media types with 415", async () => {
    const reply = await http.request("POST", "/api/v1/login", {
      rawBody: "email=a@b.c",
      headers: { "content-type": "text/plain" },
    });
    expect(reply.status).toBe(415);
    expect(reply.body.status).toBe("error");
    expect(reply.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers a JSON body that is not an object with 400 MALFORMED_REQUEST, not 500", async () => {
    for (const path of ["/api/v1/login", "/api/v1/register", "/api/v1/reset-password"]) {
      for (const rawBody of ["[]", '"text"', "42", "null"]) {
        const reply = await http.request("POST", path, {
          rawBody,
          headers: { "content-type": "application/json" },
        });
        expect(reply.status, `${path} ${rawBody}`).toBe(400);
        expect(reply.body).toEqual({
          status: "error",
          message: inputMessages.bodyNotObject,
          code: "MALFORMED_REQUEST",
        });
      }
    }
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const reply = await http.get("/api/v1/no-such-thing");
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({
      status: "error",
      message: serverMessages.routeNotFound,
      code: "NOT_FOUND",
    });
    expect((await http.request("DELETE", "/api/v1/user")).status).toBe(404);
  });

  it("serves the app shell for any other path (SPA fallback) and hashed assets as immutable", async () => {
    for (const path of ["/", "/user/security", "/account/sign-in?x=1", "/anything/else"]) {
      const reply = await http.get(path);
      expect(reply.status, path).toBe(200);
      expect(reply.text).toContain('<div id="root">');
      expect(reply.headers.get("content-type")).toContain("text/html");
      expect(reply.headers.get("cache-control")).toBe("no-cache");
    }
    const asset = await http.get("/assets/app-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
  });

  it("sends security headers with a strict Content-Security-Policy", async () => {
    const reply = await http.get("/");
    const policy = reply.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-src 'self' blob:");
    expect(reply.headers.get("x-content-type-options")).toBe("nosniff");
    expect(reply.headers.get("strict-transport-security")).toBeTruthy();
    // The same headers on API replies and errors as on pages.
    const error = await http.get("/api/v1/no-such-route");
    expect(error.status).toBe(404);
    expect(error.headers.get("content-security-policy")).toBe(policy);
    expect(error.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("allows cross-origin calls only from PUBLIC_URL", async () => {
    const allowed = await http.request("OPTIONS", "/api/v1/login", {
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST" },
    });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    const refused = await http.request("OPTIONS", "/api/v1/login", {
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(refused.headers.get("access-control-allow-origin")).not.toBe("https://evil.example");
  });

  it("publishes an OpenAPI document made from the route schemas, and a docs page", async () => {
    const reply = await http.get("/api/v1/openapi.json");
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toMatch(/^3\./);
    for (const path of [
      "/api/v1/register",
      "/api/v1/login",
      "/api/v1/user",
      "/api/v1/update-password",
      "/api/v1/practice-balance/top-up",
    ]) {
      expect(Object.keys(reply.body.paths), path).toContain(path);
    }
    const register = reply.body.paths["/api/v1/register"].post;
    expect(Object.keys(register.requestBody.content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["first_name", "email", "password", "accept_terms"]),
    );
    const docs = await http.get("/api/v1/docs");
    expect(docs.status).toBe(200);
    expect(docs.text).toContain("swagger");
  });

  it("never lets a response schema leak a password hash", async () => {
    const trader = await signedInTrader(platform);
    const me = await http.get("/api/v1/user", trader.token);
    expect(me.text).not.toContain("$argon2");
    expect(me.text).not.toContain("password");
  });
});
