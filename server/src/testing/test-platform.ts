import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import type { AppContext } from "../app-context.ts";
import { ManualClock } from "../clock.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { openDatabase } from "../db/open-database.ts";
import type { Feed } from "../feeds/tick.ts";
import { checkLedger } from "../ledger/ledger.ts";
import { createMigratedPostgresDatabase, migratedPgliteTemplate } from "./fresh-database.ts";
import { SmtpCapture } from "./smtp-capture.ts";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface TestPlatform {
  baseUrl: string;
  app: FastifyInstance;
  context: AppContext;
  database: Database;
  /** The platform's clock: a ManualClock unless the caller passed another. */
  clock: ManualClock;
  smtp: SmtpCapture;
  /** The ledger's invariant violations (empty when sound). */
  ledgerViolations(): Promise<string[]>;
  /**
   * Stops the application (settlement, prices, sockets; memory is lost) and starts a new one
   * on the same database and clock, as a process restart would. `app`, `context` and
   * `baseUrl` then refer to the new one.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Test support: the real application on a real port over a fresh database (PGlite in a temp
 * folder, or a new PostgreSQL database; either copied from a migrated template, so the start's
 * `migrate` finds nothing to apply), a real SMTP server catching its mail, and a manual
 * clock. `webDistDir` defaults to a temp folder with a stand-in shell; pass the real build
 * for browser tests.
 */
export async function startTestPlatform(
  kind: "pglite" | "postgres",
  options: {
    env?: Record<string, string>;
    webDistDir?: string;
    clock?: ManualClock;
    /** The feeds to ingest: none by default; "from-config" runs FEED_SOURCES' real ones. */
    feeds?: Feed[] | "from-config";
  } = {},
): Promise<TestPlatform> {
  const temporary = mkdtempSync(path.join(tmpdir(), "tp-test-"));
  let webDistDir = options.webDistDir;
  if (!webDistDir) {
    webDistDir = path.join(temporary, "web");
    mkdirSync(path.join(webDistDir, "assets"), { recursive: true });
    writeFileSync(
      path.join(webDistDir, "index.html"),
      '<!doctype html><div id="root">app shell</div>',
    );
    writeFileSync(path.join(webDistDir, "assets", "app-abc123.js"), "console.info('asset');");
  }
  const postgres =
    kind === "postgres"
      ? await createMigratedPostgresDatabase(requiredDatabaseUrl(), "server")
      : null;
  const smtp = new SmtpCapture();
  const smtpUrl = await smtp.start();
  // Typed as ManualClock for the suites that advance it; one that passes systemClock must not.
  const clock = (options.clock ?? new ManualClock(new Date("2026-01-15T12:00:00Z"))) as ManualClock;

  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    PUBLIC_URL: "http://localhost:3000",
    DATA_DIR: path.join(temporary, "data"),
    CONTENT_DIR: path.join(repositoryRoot, "content"),
    WEB_DIST_DIR: webDistDir,
    SMTP_URL: smtpUrl,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    // Suites register many users from one address; the rate-limit tests set it back to 1.
    RATE_LIMIT_FACTOR: "0",
    // No simulated past unless a suite asks for it: a start stays fast.
    PRICE_HISTORY_HOURS: "0",
    // Suites register traders from the United Kingdom, restricted by default (issue 14 item
    // 4): none restricted unless a suite says (restricted-countries.test.ts does).
    RESTRICTED_COUNTRIES: "",
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...options.env,
  });
  const database = await openDatabase(
    config,
    postgres ? {} : { pgliteTemplate: await migratedPgliteTemplate() },
  );
  const start = async () => {
    const built = await buildApp({ config, database, clock, feeds: options.feeds ?? [] });
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = built.app.server.address() as AddressInfo;
    return { ...built, baseUrl: `http://127.0.0.1:${port}` };
  };
  const first = await start();

  const platform: TestPlatform = {
    baseUrl: first.baseUrl,
    app: first.app,
    context: first.context,
    database,
    clock,
    smtp,
    ledgerViolations: () => checkLedger(database),
    async restart() {
      await platform.app.close();
      const next = await start();
      platform.app = next.app;
      platform.context = next.context;
      platform.baseUrl = next.baseUrl;
    },
    async close() {
      await platform.app.close();
      await database.close();
      await smtp.stop();
      await postgres?.drop();
      rmSync(temporary, { recursive: true, force: true });
    },
  };
  return platform;
}

function requiredDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("the PostgreSQL suite needs DATABASE_URL");
  return url;
}
