import { serverMessages } from "@tp/domain/messages";
import type { FastifyBaseLogger } from "fastify";
import type { Queryable } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";

/**
 * A load balancer polls readiness every second or two: a database that does not answer
 * `SELECT 1` within this is as good as down for the traders routed here.
 */
export const readiness_database_timeout_ms = 1_000;

export interface ReadinessChecks {
  /** "pending" until buildApp finished (migrations run before it, in openDatabase). */
  migrations: "ok" | "pending";
  database: "ok" | "unreachable";
  /** "not_configured" without REDIS_URL: one process, the in-memory bus cannot be down. */
  bus: "ok" | "unreachable" | "not_configured";
  /** True from SIGTERM on: the process finishes what it holds and takes nothing new. */
  draining: boolean;
}

export interface ReadinessReport {
  ready: boolean;
  checks: ReadinessChecks;
  /** Why not ready (the first failing check), for the 503's message; null when ready. */
  reason: string | null;
}

/**
 * Whether this process should receive traffic (GET /api/v1/ready), as opposed to whether it
 * is alive (GET /api/v1/health). Not ready before the app is built, while draining, and while
 * the database or (when configured) Redis is unreachable.
 */
export class Readiness {
  #started = false;
  #draining = false;
  #lastReady: boolean | null = null;
  readonly #database: Queryable;
  readonly #bus: Pick<EventBus, "kind" | "downSinceMs">;
  readonly #log: FastifyBaseLogger;

  constructor(options: {
    database: Queryable;
    bus: Pick<EventBus, "kind" | "downSinceMs">;
    log: FastifyBaseLogger;
  }) {
    this.#database = options.database;
    this.#bus = options.bus;
    this.#log = options.log;
  }

  /** Called once buildApp is done: every part is started and every route registered. */
  markStarted() {
    this.#started = true;
  }

  /** Called on SIGTERM: from now on the process answers not ready until it exits. */
  startDraining() {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }

  async check(): Promise<ReadinessReport> {
    const database = await this.#databaseReachable();
    const downSinceMs = this.#bus.downSinceMs();
    const checks: ReadinessChecks = {
      migrations: this.#started ? "ok" : "pending",
      database: database ? "ok" : "unreachable",
      bus:
        this.#bus.kind === "memory"
          ? "not_configured"
          : downSinceMs === null
            ? "ok"
            : "unreachable",
      draining: this.#draining,
    };
    const reason =
      checks.migrations !== "ok"
        ? serverMessages.notReadyStarting
        : checks.draining
          ? serverMessages.notReadyDraining
          : checks.database !== "ok"
            ? serverMessages.notReadyDatabase
            : checks.bus === "unreachable"
              ? serverMessages.notReadyBus
              : null;
    const ready = reason === null;
    // One line per change, not one per poll: the balancer asks every second or two.
    if (this.#lastReady !== ready && this.#started) {
      if (ready) this.#log.info({ checks }, "ready: this process takes traffic");
      else this.#log.warn({ checks, reason }, "not ready: this process should get no traffic");
    }
    this.#lastReady = ready;
    return { ready, checks, reason };
  }

  async #databaseReachable(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), readiness_database_timeout_ms);
    });
    try {
      return await Promise.race([
        this.#database.query("SELECT 1").then(
          () => true,
          () => false,
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
