import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { type ManualClock, systemClock } from "@tp/server/clock";
import type { Feed } from "@tp/server/feeds/tick";
import { startTestPlatform, type TestPlatform } from "@tp/server/testing/test-platform";

/** The real built app; `npm run test:e2e` builds it first (`npm run build -w web`). */
export const web_dist_dir = fileURLToPath(new URL("../../web/dist/", import.meta.url));

/** The origin the server writes into its e-mails (PUBLIC_URL of the test platform). */
export const emailed_origin = "http://localhost:3000";

/** The real server over a fresh database, with SMTP capture, serving the built web app. */
export async function startBrowserPlatform(
  kind: "pglite" | "postgres",
  env: Record<string, string> = {},
): Promise<TestPlatform> {
  const webCopy = await snapshotWebDist();
  try {
    const platform = await startTestPlatform(kind, { webDistDir: webCopy, env });
    const close = platform.close.bind(platform);
    platform.close = async () => {
      await close();
      rmSync(webCopy, { recursive: true, force: true });
    };
    return platform;
  } catch (error) {
    rmSync(webCopy, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The platform as traders meet it: the real clock and the price simulator (so trades really
 * expire and settle; a 30-second trade settles about 32 s after it is placed), the live
 * stream reachable from the browser, and the built web app.
 *
 * The stream accepts a browser socket only from PUBLIC_URL (its Origin check), and the
 * platform listens on a port chosen when it starts. So a pass-through TCP proxy takes a port
 * first, PUBLIC_URL names it, and the browser talks to the platform through it (`baseUrl`).
 */
export async function startLiveBrowserPlatform(kind: "pglite" | "postgres"): Promise<TestPlatform> {
  return startProxiedBrowserPlatform(kind, {
    // Never advanced: the suite waits for real expiries.
    clock: systemClock as unknown as ManualClock,
    // The feeds as a fresh install builds them (the simulator over the whole catalogue),
    // with its deterministic past: charts have a day of history from the first minute.
    feeds: "from-config",
    env: { PRICE_HISTORY_HOURS: "25" },
  });
}

/**
 * The built web app behind the pass-through proxy (see startLiveBrowserPlatform): PUBLIC_URL
 * is the browser's origin, so the live stream accepts the page's socket (balance events reach
 * it) and e-mailed links open as they are. Clock, feeds and settings as startTestPlatform's.
 */
export async function startProxiedBrowserPlatform(
  kind: "pglite" | "postgres",
  options: {
    env?: Record<string, string>;
    clock?: ManualClock;
    feeds?: Feed[] | "from-config";
    /**
     * The host PUBLIC_URL names (same port). "localhost" while the browser opens
     * 127.0.0.1 (`baseUrl`) is the same-origin case of issue 11: the page's own address must
     * be accepted by the stream even though it is not PUBLIC_URL.
     */
    publicHost?: "127.0.0.1" | "localhost";
  } = {},
): Promise<TestPlatform> {
  const webCopy = await snapshotWebDist();
  const proxy = await startPassThroughProxy();
  try {
    const publicUrl = `http://${options.publicHost ?? "127.0.0.1"}:${proxy.port}`;
    const platform = await startTestPlatform(kind, {
      webDistDir: webCopy,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.feeds ? { feeds: options.feeds } : {}),
      env: { ...options.env, PUBLIC_URL: publicUrl },
    });
    proxy.forwardTo(Number(new URL(platform.baseUrl).port));
    platform.baseUrl = `http://127.0.0.1:${proxy.port}`;
    const close = platform.close.bind(platform);
    platform.close = async () => {
      await proxy.close();
      await close();
      rmSync(webCopy, { recursive: true, force: true });
    };
    return platform;
  } catch (error) {
    await proxy.close();
    rmSync(webCopy, { recursive: true, force: true });
    throw error;
  }
}

interface PassThroughProxy {
  port: number;
  forwardTo(port: number): void;
  close(): Promise<void>;
}

/** Bytes in, bytes out, to 127.0.0.1:<port>: HTTP, keep-alive and WebSocket upgrades alike. */
async function startPassThroughProxy(): Promise<PassThroughProxy> {
  let targetPort = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  return {
    port: address.port,
    forwardTo(port) {
      targetPort = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A private copy of web/dist: a rebuild during the run (the web engineer's, or a watcher's)
 * empties the folder and renames the hashed assets, which would break pages mid-test. A copy
 * taken half-way through a build lacks files its index.html names, so it is taken again.
 */
async function snapshotWebDist(): Promise<string> {
  if (!existsSync(path.join(web_dist_dir, "index.html"))) {
    throw new Error(
      `The web app is not built (${web_dist_dir}index.html is missing): run \`npm run build -w web\` ` +
        "first (`npm run test:e2e` does it for you).",
    );
  }
  for (let attempt = 1; ; attempt += 1) {
    const copy = mkdtempSync(path.join(tmpdir(), "tp-e2e-web-"));
    try {
      cpSync(web_dist_dir, copy, { recursive: true });
      const html = readFileSync(path.join(copy, "index.html"), "utf8");
      const referenced = [...html.matchAll(/(?:src|href)="\/([^"?#]+)"/g)].map(
        (match) => match[1] ?? "",
      );
      const missing = referenced.filter((file) => !existsSync(path.join(copy, file)));
      if (missing.length === 0) return copy;
      if (attempt >= 30)
        throw new Error(`web/dist stays incomplete (missing ${missing.join(", ")})`);
    } catch (error) {
      if (attempt >= 30) {
        rmSync(copy, { recursive: true, force: true });
        throw error;
      }
    }
    rmSync(copy, { recursive: true, force: true });
    await sleep(1_000);
  }
}

/** An e-mailed link moved onto the test platform's origin, path and query kept. */
export function onPlatform(platform: TestPlatform, emailedUrl: string): string {
  const url = new URL(emailedUrl);
  return new URL(`${url.pathname}${url.search}`, platform.baseUrl).toString();
}

export interface Trader {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  country: string;
  phone_number: string;
}

let trader_counter = 0;

/** A new trader's details; the e-mail is unique within the run. */
export function newTrader(overrides: Partial<Trader> = {}): Trader {
  trader_counter += 1;
  const unique = `${Date.now().toString(36)}${trader_counter}`;
  return {
    first_name: "Grace",
    last_name: "Hopper",
    email: `grace.${unique}@example.test`,
    password: "Cobol1959rocks",
    country: "United States",
    phone_number: "+1 555 010 2030",
    ...overrides,
  };
}

export interface ApiReply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: replies are inspected field by field
  body: any;
}

/** Calls the platform's API as a client outside the browser would. */
export async function api(
  platform: TestPlatform,
  method: "GET" | "POST" | "PUT",
  path: string,
  options: { body?: unknown; token?: string | null } = {},
): Promise<ApiReply> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const reply = await fetch(`${platform.baseUrl}/api/v1${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: reply.status, body: await reply.json() };
}

/** Registers a trader through the API (for suites whose subject is not registration). */
export async function registerByApi(platform: TestPlatform, trader: Trader): Promise<void> {
  const reply = await api(platform, "POST", "/register", {
    body: { ...trader, password_confirmation: trader.password, accept_terms: true },
  });
  if (reply.status !== 201) {
    throw new Error(
      `registering ${trader.email} answered ${reply.status}: ${JSON.stringify(reply.body)}`,
    );
  }
}
