import { inputMessages } from "@tp/domain/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  changePaymentMethod,
  pngBytes,
  staffToken,
  startFundingPlatform,
} from "./support/funding.ts";
import { httpClient, newTrader } from "./support/http.ts";

/**
 * The hostile-input sweep (issue 12 item 1): the app's own OpenAPI document lists every
 * operation; each gets the hostile set (NUL, lone surrogates, bidi overrides, oversized text
 * in every string field; `null`, arrays and scalars as the body; wrong types; huge numbers;
 * dates outside what PostgreSQL stores; the same in query strings and path parameters),
 * signed out, as a trader and as an admin where the operation needs one. It requires no 5xx
 * at all, and that every refusal leaves the database exactly as it was (a checksum of every
 * table after each request that wrote anything; the transaction snapshot tells which did).
 */

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked as plain JSON
type Json = any;
type Identity = "signed out" | "trader" | "admin";

interface Operation {
  method: string;
  path: string;
  secured: boolean;
  admin: boolean;
  queryNames: string[];
  bodySchema: Json | null;
}

interface Probe {
  label: string;
  path: string;
  query?: string;
  /** Raw JSON text (so `1e400`, deep nesting and lone surrogates travel as written). */
  rawBody?: string;
  form?: Record<string, string>;
}

/** Replies that say "your input was refused": such a request must not have written. */
const refusalStatuses = new Set([400, 401, 403, 404, 413, 414, 415, 422, 431]);

const nul = "a\u0000b";
const loneHigh = "a\uD800b";
const loneLow = "a\uDC00b";
const bidi = "a\u202Eb";
const oversized = "x".repeat(100_000);

/** The hostile values of one string field, by label. */
const hostileStrings: Array<[string, unknown]> = [
  ["NUL", nul],
  ["lone high surrogate", loneHigh],
  ["lone low surrogate", loneLow],
  ["bidi override", bidi],
  ["control character", "a\u001Bb\u0007"],
  ["oversized", oversized],
  ["number for text", 123],
  ["object for text", { a: 1 }],
  ["null", null],
];
/** Written into raw JSON as is: `1e400` parses to Infinity. */
const hugeNumberLiterals = ["1e400", "-1e400", "1e308", "9223372036854775808", "-1", "0.000001"];
const hostileQueryValues = [
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%E2%80%AE",
  "x".repeat(4000),
  "1e308",
  "99999999999999999999999",
  "-1",
  "1.5",
  "NaN",
  "0000-01-01",
  "-004714-01-01",
  "-271821-04-19T00:00:00Z",
  "+275760-09-14T00:00:00Z",
  "99999-12-31",
];
const hostilePathValues = [
  "%00",
  "%ED%A0%80",
  "%E2%80%AE",
  "x".repeat(1000),
  "99999999999999999999",
  "-1",
  "1e308",
  "0",
  "1.5",
  "NaN",
];

/** Valid bodies, so a hostile value in one field is the only thing wrong with a request. */
function validBodies(): Record<string, Json> {
  const trader = newTrader();
  return {
    "POST /api/v1/register": trader,
    "POST /api/v1/login": { email: trader.email, password: "Secret123" },
    "POST /api/v1/email/resend": { email: trader.email },
    "POST /api/v1/email/verify": { email: trader.email, token: "abcdef0123456789" },
    "POST /api/v1/forgot-password": { email: trader.email },
    "POST /api/v1/reset-password": {
      email: trader.email,
      token: "abcdef0123456789",
      password: "Secret1234",
      password_confirmation: "Secret1234",
    },
    "PUT /api/v1/update-password": {
      current_password: "Wrong12345",
      password: "Secret1234",
      password_confirmation: "Secret1234",
    },
    "PUT /api/v1/update-profile": {
      first_name: "Grace",
      last_name: "Hopper",
      phone_number: "+44 20 7946 0000",
    },
    "POST /api/v1/place-trade": {
      asset: "BTC/USD",
      amount: 10,
      duration: 60,
      type: "call",
      is_practice: true,
    },
    "POST /api/v1/deposits": { payment_method_id: "bitcoin", amount: 10 },
    "POST /api/v1/withdrawals": {
      payment_method_id: "bitcoin",
      amount: 10,
      withdrawal_details: { wallet_address: "bc1qhostilewalletaddress000000000" },
    },
    "POST /api/v1/notifications/save-token": {
      token: {
        endpoint: "https://push.example.test/send/abc",
        expirationTime: null,
        keys: { p256dh: "B".repeat(87), auth: "A".repeat(22) },
      },
    },
    "POST /api/v1/admin/deposits/{id}/reject": { reason: "Receipt unreadable" },
    "POST /api/v1/admin/withdrawals/{id}/approve": { payout_reference: "PAYOUT-1" },
    "POST /api/v1/admin/withdrawals/{id}/reject": { reason: "Wrong wallet" },
    "POST /api/v1/admin/verifications/{id}/reject": { reason: "Blurred" },
    "PUT /api/v1/admin/payment-methods/{id}": {
      name: "Bitcoin",
      wallet_address: "bc1qhostilewalletaddress000000000",
      instructions: ["Send only BTC"],
      additional_details: { network: "Bitcoin" },
    },
    "POST /api/v1/admin/notifications": { title: "Hello", message: "Line one", user_id: null },
  };
}

/** The multipart forms (not described as bodies in the document), with their text fields. */
const multipartForms: Record<string, Record<string, string>> = {
  "POST /api/v1/deposits/{id}/receipt": { transaction_hash: "0xabc123" },
  "POST /api/v1/upload-verification": { id_type: "passport", accept_terms: "1" },
};

/** A value of the schema's type, for operations without a valid body above (new routes). */
function exampleOf(schema: Json): Json {
  if (!schema || typeof schema !== "object") return "text";
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (Array.isArray(variants)) {
    return exampleOf(variants.find((variant: Json) => variant.type !== "null") ?? variants[0]);
  }
  const type = Array.isArray(schema.type)
    ? schema.type.find((t: string) => t !== "null")
    : schema.type;
  switch (type) {
    case "object": {
      const value: Record<string, Json> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        value[key] = exampleOf(property);
      }
      return value;
    }
    case "array":
      return [exampleOf(schema.items)];
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    default:
      return schema.format === "email" ? "someone@example.test" : "Text123abc";
  }
}

/** Every leaf and object of `value` with its path (arrays by index). */
function fieldsOf(value: Json, path: string[] = []): Array<{ path: string[]; value: Json }> {
  const fields: Array<{ path: string[]; value: Json }> = [];
  if (value !== null && typeof value === "object") {
    if (path.length > 0) fields.push({ path, value });
    for (const [key, child] of Object.entries(value)) {
      fields.push(...fieldsOf(child, [...path, key]));
    }
  } else if (path.length > 0) {
    fields.push({ path, value });
  }
  return fields;
}

function withField(body: Json, path: string[], value: Json): Json {
  const copy = structuredClone(body);
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path[path.length - 1]!] = value;
  return copy;
}

const hugeMarker = "__HUGE_NUMBER__";

function bodyProbes(base: Json, path: string): Probe[] {
  const probes: Probe[] = [
    { label: "body null", path, rawBody: "null" },
    { label: "body array", path, rawBody: "[]" },
    { label: "body array of body", path, rawBody: JSON.stringify([base]) },
    { label: "body string", path, rawBody: '"text"' },
    { label: "body number", path, rawBody: "42" },
    { label: "body empty object", path, rawBody: "{}" },
    { label: "body NUL key", path, rawBody: JSON.stringify({ ...base, [nul]: "x" }) },
    {
      label: "body nested deep",
      path,
      rawBody: `{"deep":${"[".repeat(5000)}${"]".repeat(5000)}}`,
    },
  ];
  for (const field of fieldsOf(base)) {
    const name = field.path.join(".");
    const values: Array<[string, Json]> =
      typeof field.value === "string"
        ? hostileStrings
        : typeof field.value === "number"
          ? [
              ...hugeNumberLiterals.map((literal): [string, Json] => [
                literal,
                hugeMarker + literal,
              ]),
              ["text for number", "12abc"],
              ["NUL for number", nul],
            ]
          : typeof field.value === "boolean"
            ? [
                ["text for boolean", "true"],
                ["NUL for boolean", nul],
              ]
            : field.value === null
              ? [
                  ["NUL for null", nul],
                  ["bidi for null", bidi],
                  [hugeNumberLiterals[0]!, hugeMarker + hugeNumberLiterals[0]],
                ]
              : Array.isArray(field.value)
                ? [
                    ["NUL item", [nul]],
                    ["text for list", "x"],
                  ]
                : [
                    ["NUL key", { [nul]: "x" }],
                    ["lone surrogate key", { [loneHigh]: "x" }],
                    ["list for object", []],
                    ["text for object", "x"],
                  ];
    for (const [label, value] of values) {
      const rawBody = JSON.stringify(withField(base, field.path, value)).replace(
        new RegExp(`"${hugeMarker}([^"]*)"`),
        "$1",
      );
      probes.push({ label: `${name}: ${label}`, path, rawBody });
    }
  }
  return probes;
}

/** Rows of every table, hashed; columns that change on every signed-in request are left out. */
async function databaseChecksum(database: Database, tables: string[]): Promise<string> {
  const volatileColumns: Record<string, string> = {
    sessions: "id, user_id, revoked_at",
    // Workers mark these sent in the background; how many exist is what a request decides.
    outbox_emails: "1 AS row",
    notification_deliveries: "1 AS row",
    push_deliveries: "1 AS row",
  };
  const parts = tables.map((table) => {
    const columns = volatileColumns[table];
    const source = columns ? `(SELECT ${columns} FROM ${table})` : table;
    return `SELECT '${table}' AS t, count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${source} x`;
  });
  const result = await database.query<{ t: string; n: number; h: string }>(
    parts.join(" UNION ALL "),
  );
  return result.rows.map((row) => `${row.t}:${row.n}:${row.h}`).join("\n");
}

/**
 * The current snapshot (read-only: taking it assigns no transaction id). Every change to a
 * table's rows, committed or rolled back, is made by a transaction with an id, and when such
 * a transaction ends the snapshot changes: its id leaves the in-progress list, or it was
 * assigned after the last snapshot and the horizon moves past it. A request's transactions
 * have ended by the time it is answered, so while this mark stands still no row has changed
 * anywhere and the whole-database checksum would only confirm it. Any write moves it, a
 * background worker's included; the checksum then decides.
 */
async function writeMark(database: Database): Promise<string> {
  const result = await database.query<{ snapshot: string }>(
    "SELECT pg_current_snapshot()::text AS snapshot",
  );
  return result.rows[0]!.snapshot;
}

function changedTables(before: string, after: string): string[] {
  const beforeLines = new Set(before.split("\n"));
  return after
    .split("\n")
    .filter((line) => !beforeLines.has(line))
    .map((line) => line.split(":")[0]!);
}

describe.each(databaseKindsUnderTest())("hostile input on %s", (kind) => {
  let platform: TestPlatform;
  let operations: Operation[];
  let tables: string[];
  const tokens: Record<Identity, string | null> = { "signed out": null, trader: null, admin: null };
  let trader: Awaited<ReturnType<typeof signedInTrader>>;
  /** Real ids, so a probe that gets past validation meets real rows. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    const http = httpClient(platform.baseUrl);
    const document = (await http.get("/api/v1/openapi.json")).body;
    operations = [];
    for (const [path, methods] of Object.entries<Json>(document.paths)) {
      for (const [method, operation] of Object.entries<Json>(methods)) {
        operations.push({
          method: method.toUpperCase(),
          path,
          secured: Array.isArray(operation.security) && operation.security.length > 0,
          admin: path.startsWith("/api/v1/admin/"),
          queryNames: (operation.parameters ?? [])
            .filter((parameter: Json) => parameter.in === "query")
            .map((parameter: Json) => parameter.name),
          bodySchema: operation.requestBody?.content?.["application/json"]?.schema ?? null,
        });
      }
    }
    const tableRows = await platform.database.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    tables = tableRows.rows.map((row) => row.table_name);
    trader = await signedInTrader(platform);
    tokens.trader = trader.token;
    tokens.admin = await staffToken(platform);
    ids.user = String(trader.user.id);
    // A payment-method change takes effect once a second admin confirms it (four eyes).
    const payout = await changePaymentMethod(platform, tokens.admin, "bitcoin", {
      wallet_address: "bc1qhostilewalletaddress000000000",
    });
    expect(payout.status).toBe(200);
  }, 60_000);
  afterAll(async () => platform?.close());

  /** The token of `identity`, signed in again if an operation (log out, revoke) ended it. */
  async function tokenOf(identity: Identity): Promise<string | null> {
    if (identity === "signed out") return null;
    const http = httpClient(platform.baseUrl);
    const check = await http.get("/api/v1/user", tokens[identity]!);
    if (check.status === 401) {
      tokens[identity] =
        identity === "admin"
          ? await staffToken(platform)
          : (
              await http.post("/api/v1/login", {
                email: trader.email,
                password: trader.password,
              })
            ).body.data.token;
    }
    return tokens[identity];
  }

  async function signedIn(identity: "trader" | "admin"): Promise<string> {
    return (await tokenOf(identity))!;
  }

  async function send(operation: Operation, probe: Probe, token: string | null) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let body: FormData | string | undefined;
    if (probe.form) {
      const form = new FormData();
      for (const [name, value] of Object.entries(probe.form)) form.append(name, value);
      form.append(
        "receipt",
        new Blob([pngBytes() as Uint8Array<ArrayBuffer>], { type: "image/png" }),
        "a.png",
      );
      form.append(
        "document",
        new Blob([pngBytes() as Uint8Array<ArrayBuffer>], { type: "image/png" }),
        "a.png",
      );
      body = form;
    } else if (probe.rawBody !== undefined) {
      headers["content-type"] = "application/json";
      body = probe.rawBody;
    }
    const url = `${platform.baseUrl}${probe.path}${probe.query ? `?${probe.query}` : ""}`;
    const response = await fetch(url, { method: operation.method, headers, body });
    await response.arrayBuffer();
    return response.status;
  }

  /** The value a path parameter gets when it is not the one being probed. */
  function parameterValue(operation: Operation, name: string): string {
    if (name === "id" && operation.path.includes("/users/")) return ids.user!;
    if (name === "id" && operation.path.includes("payment-methods")) return "bitcoin";
    if (name === "name") return "hostile";
    if (name === "file") return "hostile.png";
    return "999999";
  }

  /** The operation's path with real values, or `hostile` in parameter `probed`. */
  function concretePath(operation: Operation, probed?: { name: string; value: string }): string {
    return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
      name === probed?.name ? probed.value : parameterValue(operation, name),
    );
  }

  function probesOf(operation: Operation, light: boolean): Probe[] {
    const key = `${operation.method} ${operation.path}`;
    const path = concretePath(operation);
    const probes: Probe[] = [];
    if (operation.bodySchema) {
      const base = validBodies()[key] ?? exampleOf(operation.bodySchema);
      const all = bodyProbes(base, path);
      probes.push(
        ...(light
          ? all.slice(0, 1).concat(all.filter((p) => p.label.endsWith("NUL")).slice(0, 1))
          : all),
      );
    } else if (operation.method !== "GET" && operation.method !== "DELETE") {
      probes.push({ label: "body null on a route without one", path, rawBody: "null" });
    }
    if (light) return probes.length > 0 ? probes : [{ label: "plain", path }];
    const form = multipartForms[key];
    if (form) {
      for (const name of Object.keys(form)) {
        for (const [label, value] of hostileStrings) {
          if (typeof value !== "string" || value === oversized) continue;
          probes.push({ label: `form ${name}: ${label}`, path, form: { ...form, [name]: value } });
        }
      }
    }
    for (const name of operation.queryNames) {
      for (const value of hostileQueryValues) {
        probes.push({
          label: `query ${name}=${value.slice(0, 24)}`,
          path,
          query: `${name}=${value}`,
        });
      }
      probes.push({ label: `query ${name} twice`, path, query: `${name}=1&${name}=2` });
    }
    for (const match of operation.path.matchAll(/\{([^}]+)\}/g)) {
      for (const value of hostilePathValues) {
        probes.push({
          label: `path ${match[1]}=${value.slice(0, 24)}`,
          path: concretePath(operation, { name: match[1]!, value }),
        });
      }
    }
    probes.push({ label: "unknown query parameter with NUL", path, query: "zz=%00" });
    return probes;
  }

  it("every operation in the OpenAPI document: 0 × 5xx, and every refusal leaves the database unchanged", async () => {
    expect(operations.length).toBeGreaterThan(50);
    const serverErrors: string[] = [];
    const writesOnRefusal: string[] = [];
    let sent = 0;
    let refused = 0;
    for (const operation of operations) {
      const identities: Array<[Identity, boolean]> = !operation.secured
        ? [["signed out", false]]
        : operation.admin
          ? [
              ["signed out", true],
              ["trader", true],
              ["admin", false],
            ]
          : [
              ["signed out", true],
              ["trader", false],
            ];
      for (const [identity, light] of identities) {
        const token = await tokenOf(identity);
        // A read must write nothing whatever its reply: one checksum around the whole batch.
        // Anything else may write when it succeeds: after every request a checksum, or the
        // write mark (writeMark) where it shows that nothing wrote at all.
        const reads = operation.method === "GET";
        let mark = await writeMark(platform.database);
        const batchStart = await databaseChecksum(platform.database, tables);
        let before = batchStart;
        for (const probe of probesOf(operation, light)) {
          const status = await send(operation, probe, token);
          sent += 1;
          const where = `${operation.method} ${operation.path} as ${identity}: ${probe.label}`;
          if (status >= 500) serverErrors.push(`${status} ${where}`);
          if (refusalStatuses.has(status)) refused += 1;
          if (reads) continue;
          const markAfter = await writeMark(platform.database);
          if (markAfter === mark) continue;
          const after = await databaseChecksum(platform.database, tables);
          if (refusalStatuses.has(status) && after !== before) {
            writesOnRefusal.push(`${status} ${where}: ${changedTables(before, after).join(", ")}`);
          }
          before = after;
          // The mark read before the checksum: whatever ends after it moves the next mark.
          mark = markAfter;
        }
        if (reads) {
          const after = await databaseChecksum(platform.database, tables);
          if (after !== batchStart) {
            const where = `${operation.method} ${operation.path} as ${identity}`;
            writesOnRefusal.push(`${where}: ${changedTables(batchStart, after).join(", ")}`);
          }
        }
      }
    }
    expect(serverErrors).toEqual([]);
    expect(writesOnRefusal).toEqual([]);
    // The sweep did send the hostile set, and the set was refused (not quietly accepted).
    expect(sent).toBeGreaterThan(1000);
    expect(refused / sent).toBeGreaterThan(0.9);
  }, 240_000);

  it("names the field and the character refused, and a signed-out caller gets 401 first", async () => {
    const http = httpClient(platform.baseUrl);
    const login = await http.post("/api/v1/login", { email: nul, password: "Secret123" });
    expect(login.status).toBe(422);
    expect(login.body.code).toBe("VALIDATION_FAILED");
    expect(login.body.errors).toEqual({ email: [inputMessages.textNul] });

    const register = await http.post("/api/v1/register", newTrader({ first_name: loneHigh }));
    expect(register.status).toBe(422);
    expect(register.body.errors.first_name).toEqual([inputMessages.textUnpairedSurrogate]);

    const search = await http.get("/api/v1/admin/users?q=a%00b", tokens.admin!);
    expect(search.status).toBe(422);
    expect(search.body.errors).toEqual({ q: [inputMessages.textNul] });

    const title = await http.post(
      "/api/v1/admin/notifications",
      { title: `Pay ${bidi}`, message: "Hello" },
      await signedIn("admin"),
    );
    expect(title.status).toBe(422);
    expect(title.body.errors).toEqual({ title: [inputMessages.textBidiControl] });
    const escapeSequence = await http.post(
      "/api/v1/admin/notifications",
      { title: "Pay \u001B[2J", message: "Hello" },
      await signedIn("admin"),
    );
    expect(escapeSequence.body.errors).toEqual({ title: [inputMessages.textControl] });

    const wallet = await http.post(
      "/api/v1/withdrawals",
      {
        payment_method_id: "bitcoin",
        amount: 10,
        withdrawal_details: { wallet_address: `bc1q${"\u202E"}evil0000000` },
      },
      await signedIn("trader"),
    );
    expect(wallet.status).toBe(422);
    expect(wallet.body.errors["withdrawal_details.wallet_address"]).toEqual([
      inputMessages.textBidiControl,
    ]);

    // Signed out, the body is not even looked at.
    for (const rawBody of ["null", '{"first_name":"\\u0000"}']) {
      const profile = await http.request("PUT", "/api/v1/update-profile", {
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(profile.status, rawBody).toBe(401);
    }
    // And an unknown route is still a 404, in the signed-in and staff scopes alike.
    expect((await http.get("/api/v1/admin/no-such-thing")).status).toBe(404);
    expect((await http.request("PATCH", "/api/v1/user")).status).toBe(404);
  });

  it("a broadcast's message may span lines; its title may not", async () => {
    const http = httpClient(platform.baseUrl);
    const token = await signedIn("admin");
    const multiline = await http.post(
      "/api/v1/admin/notifications",
      { title: "Maintenance", message: "Tonight:\n\tprices pause for ten minutes", user_id: null },
      token,
    );
    expect(multiline.status).toBe(201);
    const title = await http.post(
      "/api/v1/admin/notifications",
      { title: "Main\ntenance", message: "Tonight" },
      token,
    );
    expect(title.status).toBe(422);
    expect(title.body.errors).toEqual({ title: [inputMessages.textControl] });
  });

  it("dates outside what PostgreSQL stores are refused with a message, not a 500", async () => {
    const http = httpClient(platform.baseUrl);
    const admin = await signedIn("admin");
    const audit = await http.get("/api/v1/admin/audit-log?from=0000-01-01T00:00:00Z", admin!);
    expect(audit.status).toBe(400);
    expect(audit.body.errors).toEqual({ from: [inputMessages.dateOutOfRange] });
    const candles = await http.get("/api/v1/candles?symbol=BTC/USD&from=-004714-01-01");
    expect(candles.status).toBe(400);
    expect(candles.body.errors.from).toEqual([inputMessages.dateOutOfRange]);
    const push = await http.post(
      "/api/v1/notifications/save-token",
      {
        token: {
          endpoint: "https://push.example.test/send/abc",
          expirationTime: 8.64e15 + 1,
          keys: { p256dh: "B".repeat(87), auth: "A".repeat(22) },
        },
      },
      await signedIn("trader"),
    );
    expect(push.status).toBe(422);
    expect(push.body.errors["token.expirationTime"]).toEqual([inputMessages.dateOutOfRange]);
  });

  it("authenticated replies, and sign-in replies that carry a token, are not stored", async () => {
    const http = httpClient(platform.baseUrl);
    const login = await http.post("/api/v1/login", {
      email: trader.email,
      password: trader.password,
    });
    expect(login.status).toBe(200);
    expect(login.headers.get("cache-control")).toBe("no-store");
    const user = await http.get("/api/v1/user", login.body.data.token);
    expect(user.status).toBe(200);
    expect(user.headers.get("cache-control")).toBe("no-store");
    const staff = await http.get("/api/v1/admin/users", await signedIn("admin"));
    expect(staff.headers.get("cache-control")).toBe("no-store");
    const refused = await http.get("/api/v1/user");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    // Public data stays cacheable: the offline app keeps the markets it last saw.
    const markets = await http.get("/api/v1/markets");
    expect(markets.status).toBe(200);
    expect(markets.headers.get("cache-control")).toBeNull();
  });
});
