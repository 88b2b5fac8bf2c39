import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { httpClient } from "./support/http.ts";

/**
 * Issue 17 item 2: GET /api/v1/ready says whether this process should receive traffic
 * (a load balancer's health check), apart from liveness (GET /api/v1/health).
 */
describe.each(databaseKindsUnderTest())("readiness on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  it("is ready on a started platform, without signing in, and never cached", async () => {
    const reply = await http.get("/api/v1/ready");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: "success",
      data: {
        ready: true,
        checks: { migrations: "ok", database: "ok", bus: "not_configured", draining: false },
      },
    });
    expect(reply.headers.get("cache-control")).toBe("no-store");
    const openapi = await http.get("/api/v1/openapi.json");
    expect(Object.keys(openapi.body.paths["/api/v1/ready"].get.responses)).toEqual(
      expect.arrayContaining(["200", "503"]),
    );
  });

  it("answers 503 NOT_READY with the same data while draining; liveness stays 200", async () => {
    platform.context.readiness.startDraining();
    try {
      const reply = await http.get("/api/v1/ready");
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({
        status: "error",
        code: "NOT_READY",
        message: "Not ready: the server is shutting down",
        data: {
          ready: false,
          checks: { migrations: "ok", database: "ok", bus: "not_configured", draining: true },
        },
      });
      expect((await http.get("/api/v1/health")).status).toBe(200);
    } finally {
      await platform.restart();
      http = httpClient(platform.baseUrl);
    }
    expect((await http.get("/api/v1/ready")).status).toBe(200);
  });
});
