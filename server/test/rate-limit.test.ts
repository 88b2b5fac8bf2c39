import { serverMessages } from "@tp/domain/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throttleRules } from "../src/auth/attempt-throttle.ts";
import { rateRules } from "../src/rate-limit/rate-limiter.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";

describe("rate limits at RATE_LIMIT_FACTOR = 1", () => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform("pglite", { env: { RATE_LIMIT_FACTOR: "1" } });
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  // Per account, sign-in, forgot-password and resend are slowed and then ask for a proof of
  // work rather than refused (lockout.test.ts); per address they are still limited.
  it("limits sign-in attempts per address, then lets them through after the window", async () => {
    const trader = await signedInTrader(platform);
    const limit = rateRules.loginPerIp.limit - 1; // signedInTrader used one attempt
    for (let attempt = 0; attempt < limit; attempt++) {
      // A different account each time, so only the per-address limit counts them.
      const reply = await http.post("/api/v1/login", {
        email: `nobody${attempt}@example.test`,
        password: "Wrong1234",
      });
      expect(reply.status).toBe(401);
    }
    const limited = await http.post("/api/v1/login", {
      email: trader.email,
      password: trader.password,
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      status: "error",
      message: serverMessages.rateLimited,
      code: "RATE_LIMITED",
    });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);

    platform.clock.advance(rateRules.loginPerIp.window_ms);
    expect(
      (await http.post("/api/v1/login", { email: trader.email, password: trader.password })).status,
    ).toBe(200);
  });
});

describe("RATE_LIMIT_FACTOR = 0 turns the limits off", () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform("pglite", { env: { RATE_LIMIT_FACTOR: "0" } });
  });
  afterAll(async () => platform?.close());

  it("lets more resends through than any limit or challenge threshold", async () => {
    const http = httpClient(platform.baseUrl);
    for (
      let attempt = 0;
      attempt < throttleRules.resendVerification.challenge_after + 3;
      attempt++
    ) {
      expect(
        (await http.post("/api/v1/email/resend", { email: "ghost@example.test" })).status,
      ).toBe(200);
    }
  });
});
