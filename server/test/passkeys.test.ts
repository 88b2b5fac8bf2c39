import { serverMessages } from "@tp/domain/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAuthChallenge } from "../src/auth/auth-challenges.ts";
import { step_up_window_ms } from "../src/auth/step-up.ts";
import { relyingPartyFor } from "../src/auth/webauthn-relying-party.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { SoftAuthenticator } from "./support/soft-authenticator.ts";

/** The test platform's PUBLIC_URL is http://localhost:3000: RP ID "localhost". */
const public_origin = "http://localhost:3000";

describe("the relying party: RP ID from PUBLIC_URL, an explicit list of origins", () => {
  const publicUrl = "https://trade.example.com";

  it("accepts PUBLIC_URL and the request's own address only within the RP ID", () => {
    const own = relyingPartyFor(publicUrl, "TP", {
      protocol: "https",
      host: "eu.trade.example.com",
    });
    expect(own).toEqual({
      id: "trade.example.com",
      name: "TP",
      origins: ["https://trade.example.com", "https://eu.trade.example.com"],
    });
    // Whatever Host a client sends, the RP ID stays PUBLIC_URL's and a foreign host adds nothing.
    for (const host of [
      "evil.example",
      "trade.example.com.evil.example",
      "eviltrade.example.com",
    ]) {
      expect(relyingPartyFor(publicUrl, "TP", { protocol: "https", host })).toEqual({
        id: "trade.example.com",
        name: "TP",
        origins: ["https://trade.example.com"],
      });
    }
    for (const host of [undefined, "", "a/b", "user@trade.example.com", "trade.example.com/x?y"]) {
      expect(relyingPartyFor(publicUrl, "TP", { protocol: "https", host }).origins).toEqual([
        "https://trade.example.com",
      ]);
    }
  });
});

describe.each(databaseKindsUnderTest())("passkeys on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  async function count(sql: string, parameters: unknown[] = []): Promise<number> {
    const result = await platform.database.query<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM ${sql}`,
      parameters,
    );
    return result.rows[0]?.n ?? -1;
  }

  /** A signed-in trader with one passkey registered through the API. */
  async function traderWithPasskey() {
    const trader = await signedInTrader(platform);
    const authenticator = new SoftAuthenticator(public_origin);
    const options = await http.post("/api/v1/passkeys/registration/options", {}, trader.token);
    expect(options.status).toBe(200);
    const registered = await http.post(
      "/api/v1/passkeys/registration",
      {
        challenge_token: options.body.data.challenge_token,
        name: "Laptop",
        response: authenticator.create(options.body.data.options),
      },
      trader.token,
    );
    expect(registered.status).toBe(201);
    return { ...trader, authenticator, passkey: registered.body.data.passkey };
  }

  async function signInOptions(body?: unknown) {
    const reply =
      body === undefined
        ? await http.post("/api/v1/login/passkey/options", {})
        : await http.post("/api/v1/login/passkey/options", body);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data as { challenge_token: string; options: { challenge: string } };
  }

  async function sessionsOf(userId: number) {
    return count("sessions WHERE user_id = $1", [userId]);
  }

  it("registers a discoverable, user-verified passkey bound to PUBLIC_URL's host", async () => {
    const trader = await signedInTrader(platform);
    const options = await http.post("/api/v1/passkeys/registration/options", {}, trader.token);
    expect(options.status).toBe(200);
    const data = options.body.data;
    expect(data.challenge_token).toEqual(expect.any(String));
    expect(data.options.rp).toEqual({ id: "localhost", name: expect.any(String) });
    expect(data.options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    // The user handle names no person: the account id, not the e-mail.
    expect(Buffer.from(data.options.user.id, "base64url").toString()).toBe(String(trader.user.id));
    expect(data.options.user.name).toBe(trader.email);

    const authenticator = new SoftAuthenticator(public_origin);
    const registered = await http.post(
      "/api/v1/passkeys/registration",
      {
        challenge_token: data.challenge_token,
        name: "  Laptop  ",
        response: authenticator.create(data.options),
      },
      trader.token,
    );
    expect(registered.status).toBe(201);
    expect(registered.body.message).toBe(serverMessages.passkeyAdded);
    expect(registered.body.data.passkey).toEqual({
      id: expect.any(Number),
      name: "Laptop",
      created_at: platform.clock.now().toISOString(),
      last_used_at: null,
    });

    const list = await http.get("/api/v1/passkeys", trader.token);
    expect(list.status).toBe(200);
    expect(list.body.data.passkeys).toEqual([registered.body.data.passkey]);

    // The next registration excludes the passkey already there.
    const again = await http.post("/api/v1/passkeys/registration/options", {}, trader.token);
    expect(again.body.data.options.excludeCredentials).toEqual([
      {
        id: authenticator.credentials[0]?.id.toString("base64url"),
        type: "public-key",
        transports: ["internal"],
      },
    ]);
  });

  it("signs in with the passkey alone: a stepped-up session, the counter and last use kept", async () => {
    const trader = await traderWithPasskey();
    const before = await sessionsOf(trader.user.id);
    const { challenge_token, options } = await signInOptions();
    // Passwordless: no list of credentials, the browser offers the discoverable ones.
    expect(options).not.toHaveProperty("allowCredentials");
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "required" });

    platform.clock.advance(60_000);
    const reply = await http.post("/api/v1/login/passkey", {
      challenge_token,
      response: trader.authenticator.get(options),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe(serverMessages.loggedIn);
    expect(reply.body.data.user.id).toBe(trader.user.id);
    expect(reply.body.data.user.email).toBe(trader.email);
    const me = await http.get("/api/v1/user", reply.body.data.token);
    expect(me.status).toBe(200);
    expect(me.body.data.user.id).toBe(trader.user.id);
    expect(await sessionsOf(trader.user.id)).toBe(before + 1);

    const stored = await platform.database.query<{ sign_count: number; last_used_at: Date }>(
      "SELECT sign_count, last_used_at FROM passkeys WHERE id = $1",
      [trader.passkey.id],
    );
    expect(stored.rows[0]?.sign_count).toBe(1);
    expect(stored.rows[0]?.last_used_at.toISOString()).toBe(platform.clock.now().toISOString());
    const session = await platform.database.query<{ stepped_up_at: Date | null }>(
      "SELECT stepped_up_at FROM sessions WHERE user_id = $1 ORDER BY id DESC LIMIT 1",
      [trader.user.id],
    );
    expect(session.rows[0]?.stepped_up_at?.toISOString()).toBe(platform.clock.now().toISOString());
    const list = await http.get("/api/v1/passkeys", trader.token);
    expect(list.body.data.passkeys[0].last_used_at).toBe(platform.clock.now().toISOString());
  });

  it("refuses a used, unknown or expired challenge with 422 and signs no one in", async () => {
    const trader = await traderWithPasskey();
    const first = await signInOptions();
    const signedIn = await http.post("/api/v1/login/passkey", {
      challenge_token: first.challenge_token,
      response: trader.authenticator.get(first.options),
    });
    expect(signedIn.status).toBe(200);
    const sessions = await sessionsOf(trader.user.id);

    // The same challenge again, even with a fresh, valid signature.
    const reused = await http.post("/api/v1/login/passkey", {
      challenge_token: first.challenge_token,
      response: trader.authenticator.get(first.options),
    });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("AUTH_CHALLENGE_INVALID");

    const second = await signInOptions({});
    const unknown = await http.post("/api/v1/login/passkey", {
      challenge_token: "not-a-token-we-issued",
      response: trader.authenticator.get(second.options),
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("AUTH_CHALLENGE_INVALID");

    platform.clock.advance(5 * 60_000 + 1);
    const expired = await http.post("/api/v1/login/passkey", {
      challenge_token: second.challenge_token,
      response: trader.authenticator.get(second.options),
    });
    expect(expired.status).toBe(422);
    expect(expired.body.code).toBe("AUTH_CHALLENGE_INVALID");
    expect(await sessionsOf(trader.user.id)).toBe(sessions);
  });

  it("refuses a foreign origin, another RP ID, no user verification, an unknown passkey and a counter gone back", async () => {
    const trader = await traderWithPasskey();
    const stranger = new SoftAuthenticator(public_origin);
    stranger.create({
      challenge: "x",
      rp: { id: "localhost", name: "x" },
      user: { id: "OTk5OTk", name: "x", displayName: "x" },
      pubKeyCredParams: [],
    });
    // One good sign-in first, so the stored counter is 1.
    const good = await signInOptions();
    const signedIn = await http.post("/api/v1/login/passkey", {
      challenge_token: good.challenge_token,
      response: trader.authenticator.get(good.options),
    });
    expect(signedIn.status).toBe(200);
    const sessions = await sessionsOf(trader.user.id);
    const passkeyBefore = await platform.database.query(
      "SELECT sign_count, last_used_at FROM passkeys WHERE id = $1",
      [trader.passkey.id],
    );

    const answers = {
      "a phishing origin": (options: { challenge: string }) =>
        trader.authenticator.get(options, { origin: "https://localhost.evil.example" }),
      "another RP ID": (options: { challenge: string }) =>
        trader.authenticator.get(options, { rpId: "evil.example" }),
      "no user verification": (options: { challenge: string }) =>
        trader.authenticator.get(options, { userVerified: false }),
      "a create ceremony's client data": (options: { challenge: string }) =>
        trader.authenticator.get(options, { type: "webauthn.create" }),
      "an unknown passkey": (options: { challenge: string }) => stranger.get(options),
      "a counter gone back (a cloned key)": (options: { challenge: string }) =>
        trader.authenticator.get(options, { signCount: 1 }),
    };
    for (const [why, answer] of Object.entries(answers)) {
      const { challenge_token, options } = await signInOptions();
      const reply = await http.post("/api/v1/login/passkey", {
        challenge_token,
        response: answer(options),
      });
      expect(reply.status, why).toBe(422);
      expect(reply.body.code, why).toBe("PASSKEY_INVALID");
      expect(reply.body.message, why).toBe(serverMessages.passkeyInvalid);
    }
    // A signature over another challenge.
    const one = await signInOptions();
    const other = await signInOptions();
    const swapped = await http.post("/api/v1/login/passkey", {
      challenge_token: one.challenge_token,
      response: trader.authenticator.get(other.options),
    });
    expect(swapped.status).toBe(422);
    expect(swapped.body.code).toBe("PASSKEY_INVALID");

    // Nothing changed: no session, the passkey's counter and last use as they were.
    expect(await sessionsOf(trader.user.id)).toBe(sessions);
    const passkeyAfter = await platform.database.query(
      "SELECT sign_count, last_used_at FROM passkeys WHERE id = $1",
      [trader.passkey.id],
    );
    expect(passkeyAfter.rows).toEqual(passkeyBefore.rows);
  });

  it("kills a challenge after five answers that do not verify", async () => {
    const trader = await traderWithPasskey();
    const { challenge_token, options } = await signInOptions();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const reply = await http.post("/api/v1/login/passkey", {
        challenge_token,
        response: trader.authenticator.get(options, { origin: "https://evil.example" }),
      });
      expect(reply.body.code).toBe("PASSKEY_INVALID");
    }
    const right = await http.post("/api/v1/login/passkey", {
      challenge_token,
      response: trader.authenticator.get(options),
    });
    expect(right.status).toBe(422);
    expect(right.body.code).toBe("AUTH_CHALLENGE_INVALID");
  });

  it("accepts the request's own address when it is within the RP ID, and no other", async () => {
    const trader = await traderWithPasskey();
    // In-process requests: a client may send any Host header, which fetch does not allow.
    const ceremony = async (host: string, origin: string) => {
      const options = await platform.app.inject({
        method: "POST",
        url: "/api/v1/login/passkey/options",
        headers: { host },
        payload: {},
      });
      const data = options.json().data;
      const reply = await platform.app.inject({
        method: "POST",
        url: "/api/v1/login/passkey",
        headers: { host },
        payload: {
          challenge_token: data.challenge_token,
          response: trader.authenticator.get(data.options, { origin }),
        },
      });
      return { status: reply.statusCode, body: reply.json() };
    };
    expect((await ceremony("localhost:5173", "http://localhost:5173")).status).toBe(200);
    const foreign = await ceremony("evil.example", "http://evil.example");
    expect(foreign.status).toBe(422);
    expect(foreign.body.code).toBe("PASSKEY_INVALID");
  });

  it("refuses registrations that do not verify and stores nothing", async () => {
    const trader = await signedInTrader(platform);
    const other = await signedInTrader(platform);
    const authenticator = new SoftAuthenticator(public_origin);
    const start = async (token = trader.token) => {
      const reply = await http.post("/api/v1/passkeys/registration/options", {}, token);
      return reply.body.data;
    };
    const register = (body: unknown, token = trader.token) =>
      http.post("/api/v1/passkeys/registration", body, token);

    const foreign = await start();
    const fromEvil = await register({
      challenge_token: foreign.challenge_token,
      name: "Phone",
      response: authenticator.create(foreign.options, { origin: "https://evil.example" }),
    });
    expect(fromEvil.status).toBe(422);
    expect(fromEvil.body.code).toBe("PASSKEY_INVALID");

    const otherRp = await start();
    const forEvil = await register({
      challenge_token: otherRp.challenge_token,
      name: "Phone",
      response: authenticator.create(otherRp.options, { rpId: "evil.example" }),
    });
    expect(forEvil.body.code).toBe("PASSKEY_INVALID");

    const unverified = await start();
    const noUv = await register({
      challenge_token: unverified.challenge_token,
      name: "Phone",
      response: authenticator.create(unverified.options, { userVerified: false }),
    });
    expect(noUv.body.code).toBe("PASSKEY_INVALID");

    // Another account's challenge cannot store a passkey on this one (nor on its own).
    const theirs = await start(other.token);
    const stolen = await register({
      challenge_token: theirs.challenge_token,
      name: "Phone",
      response: authenticator.create(theirs.options),
    });
    expect(stolen.status).toBe(422);
    expect(stolen.body.code).toBe("AUTH_CHALLENGE_INVALID");

    // Base64url that is not an attestation: a 422, never a 500.
    const garbage = await start();
    const junk = await register({
      challenge_token: garbage.challenge_token,
      name: "Phone",
      response: {
        id: "AAAA",
        rawId: "AAAA",
        type: "public-key",
        response: { clientDataJSON: "AAAA", attestationObject: "AAAA" },
        clientExtensionResults: {},
      },
    });
    expect(junk.status).toBe(422);
    expect(junk.body.code).toBe("PASSKEY_INVALID");

    // Bad input at the edge: names and shapes.
    const shaped = await start();
    const good = authenticator.create(shaped.options);
    for (const [why, body] of Object.entries({
      "a NUL in the name": {
        challenge_token: shaped.challenge_token,
        name: "a\u0000b",
        response: good,
      },
      "a bidi override in the name": {
        challenge_token: shaped.challenge_token,
        name: "\u202eenohP",
        response: good,
      },
      "a lone surrogate in the name": {
        challenge_token: shaped.challenge_token,
        name: "a\ud800",
        response: good,
      },
      "an empty name": { challenge_token: shaped.challenge_token, name: "   ", response: good },
      "a long name": {
        challenge_token: shaped.challenge_token,
        name: "x".repeat(61),
        response: good,
      },
      "no response": { challenge_token: shaped.challenge_token, name: "Phone" },
      "a response that is not base64url": {
        challenge_token: shaped.challenge_token,
        name: "Phone",
        response: { ...good, id: "not base64url!" },
      },
      "a huge challenge token": {
        challenge_token: "x".repeat(10_000),
        name: "Phone",
        response: good,
      },
    })) {
      const reply = await register(body);
      expect(reply.status, why).toBeGreaterThanOrEqual(400);
      expect(reply.status, why).toBeLessThan(500);
    }
    expect(
      await count("passkeys WHERE user_id = ANY($1::bigint[])", [[trader.user.id, other.user.id]]),
    ).toBe(0);

    // The shaped challenge was never consumed by those refusals: it still registers.
    const stored = await register({
      challenge_token: shaped.challenge_token,
      name: "Phone",
      response: good,
    });
    expect(stored.status).toBe(201);
    // The same credential again (a replayed registration) is refused.
    const replay = await start();
    const again = authenticator.create(replay.options);
    const duplicate = await register({
      challenge_token: replay.challenge_token,
      name: "Phone",
      response: {
        ...good,
        response: { ...good.response, clientDataJSON: again.response.clientDataJSON },
      },
    });
    expect(duplicate.status).toBe(422);
    expect(await count("passkeys WHERE user_id = $1", [trader.user.id])).toBe(1);
  });

  it("adding and removing need a fresh step-up; a passkey steps the session up", async () => {
    const trader = await traderWithPasskey();
    const unauthenticated = await http.post("/api/v1/passkeys/registration/options", {});
    expect(unauthenticated.status).toBe(401);

    platform.clock.advance(step_up_window_ms + 1);
    const add = await http.post("/api/v1/passkeys/registration/options", {}, trader.token);
    expect(add.status).toBe(403);
    expect(add.body.code).toBe("STEP_UP_REQUIRED");
    const remove = await http.request("DELETE", `/api/v1/passkeys/${trader.passkey.id}`, {
      token: trader.token,
    });
    expect(remove.status).toBe(403);
    expect(remove.body.code).toBe("STEP_UP_REQUIRED");
    expect(await count("passkeys WHERE id = $1", [trader.passkey.id])).toBe(1);

    // Renaming is not a change of keys: no step-up.
    const renamed = await http.request("PATCH", `/api/v1/passkeys/${trader.passkey.id}`, {
      token: trader.token,
      json: { name: "Work laptop" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.passkey.name).toBe("Work laptop");

    const stepUp = await http.post("/api/v1/step-up/passkey/options", {}, trader.token);
    expect(stepUp.status).toBe(200);
    expect(stepUp.body.data.options.allowCredentials).toHaveLength(1);
    const wrong = await http.post(
      "/api/v1/step-up/passkey",
      {
        challenge_token: stepUp.body.data.challenge_token,
        response: trader.authenticator.get(stepUp.body.data.options, { userVerified: false }),
      },
      trader.token,
    );
    expect(wrong.status).toBe(422);
    expect(
      (await http.post("/api/v1/passkeys/registration/options", {}, trader.token)).status,
    ).toBe(403);
    const steppedUp = await http.post(
      "/api/v1/step-up/passkey",
      {
        challenge_token: stepUp.body.data.challenge_token,
        response: trader.authenticator.get(stepUp.body.data.options),
      },
      trader.token,
    );
    expect(steppedUp.status).toBe(200);
    expect(steppedUp.body.message).toBe(serverMessages.passkeySteppedUp);

    // Another account cannot remove it, and learns nothing (404).
    const other = await signedInTrader(platform);
    const foreign = await http.request("DELETE", `/api/v1/passkeys/${trader.passkey.id}`, {
      token: other.token,
    });
    expect(foreign.status).toBe(404);
    const removed = await http.request("DELETE", `/api/v1/passkeys/${trader.passkey.id}`, {
      token: trader.token,
    });
    expect(removed.status).toBe(200);
    expect((await http.get("/api/v1/passkeys", trader.token)).body.data.passkeys).toEqual([]);

    // A removed passkey signs no one in.
    const { challenge_token, options } = await signInOptions();
    const signIn = await http.post("/api/v1/login/passkey", {
      challenge_token,
      response: trader.authenticator.get(options),
    });
    expect(signIn.status).toBe(422);
    expect(signIn.body.code).toBe("PASSKEY_INVALID");
    // Step-up options without a passkey: a clear refusal.
    const none = await http.post("/api/v1/step-up/passkey/options", {}, trader.token);
    expect(none.status).toBe(422);
    expect(none.body.message).toBe(serverMessages.passkeyNoneRegistered);
  });

  it("is the second factor of a pending sign-in: only that account's passkeys, once", async () => {
    const trader = await traderWithPasskey();
    const other = await traderWithPasskey();
    // The pending sign-in POST /login leaves after the password (built by the second-factor
    // work): the only coupling is a live 'second_factor' challenge naming the user.
    const pendingSignIn = (userId: number) =>
      issueAuthChallenge(platform.database, {
        userId,
        purpose: "second_factor",
        at: platform.clock.now(),
      });
    const signInToken = await pendingSignIn(trader.user.id);
    const { challenge_token, options } = await signInOptions({ sign_in_token: signInToken });
    expect((options as { allowCredentials?: unknown[] }).allowCredentials).toEqual([
      {
        id: trader.authenticator.credentials[0]?.id.toString("base64url"),
        type: "public-key",
        transports: ["internal"],
      },
    ]);
    // Someone else's passkey does not complete this account's sign-in.
    const wrongPerson = await http.post("/api/v1/login/passkey", {
      sign_in_token: signInToken,
      challenge_token,
      response: other.authenticator.get(options),
    });
    expect(wrongPerson.status).toBe(422);
    expect(wrongPerson.body.code).toBe("PASSKEY_INVALID");

    const sessions = await sessionsOf(trader.user.id);
    const done = await http.post("/api/v1/login/passkey", {
      sign_in_token: signInToken,
      challenge_token,
      response: trader.authenticator.get(options),
    });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(trader.user.id);
    expect(await sessionsOf(trader.user.id)).toBe(sessions + 1);

    // The pending sign-in is used up.
    const reuse = await http.post("/api/v1/login/passkey/options", { sign_in_token: signInToken });
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toBe("AUTH_CHALLENGE_INVALID");
    const bogus = await http.post("/api/v1/login/passkey/options", { sign_in_token: "nope" });
    expect(bogus.status).toBe(422);
    expect(bogus.body.code).toBe("AUTH_CHALLENGE_INVALID");

    // A discoverable challenge cannot finish another account's pending sign-in.
    const otherPending = await pendingSignIn(other.user.id);
    const open = await signInOptions();
    const crossed = await http.post("/api/v1/login/passkey", {
      sign_in_token: otherPending,
      challenge_token: open.challenge_token,
      response: trader.authenticator.get(open.options),
    });
    expect(crossed.status).toBe(422);
    expect(await sessionsOf(trader.user.id)).toBe(sessions + 1);
  });

  it("answers malformed sign-in bodies with 4xx, never 500", async () => {
    const { challenge_token } = await signInOptions();
    const bodies: Record<string, unknown> = {
      "no body": undefined,
      "an array": [],
      "no response": { challenge_token },
      "a NUL in the token": { challenge_token: "a\u0000b", response: {} },
      "a response of the wrong type": {
        challenge_token,
        response: {
          id: "AAAA",
          rawId: "AAAA",
          type: "password",
          response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
          clientExtensionResults: {},
        },
      },
      "garbage that parses": {
        challenge_token,
        response: {
          id: "AAAA",
          rawId: "AAAA",
          type: "public-key",
          response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
          clientExtensionResults: {},
        },
      },
    };
    for (const [why, body] of Object.entries(bodies)) {
      const reply = await http.post("/api/v1/login/passkey", body);
      expect(reply.status, why).toBeGreaterThanOrEqual(400);
      expect(reply.status, why).toBeLessThan(500);
    }
    const optionsWithJunk = await http.post("/api/v1/login/passkey/options", { sign_in_token: 5 });
    expect(optionsWithJunk.status).toBeGreaterThanOrEqual(400);
    expect(optionsWithJunk.status).toBeLessThan(500);
  });
});
