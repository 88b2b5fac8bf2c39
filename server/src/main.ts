import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/open-database.ts";

/** Starts the platform: config, database (migrated), app; closes all of it on SIGTERM/SIGINT. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const database = await openDatabase(config);
  let built: Awaited<ReturnType<typeof buildApp>>;
  try {
    built = await buildApp({ config, database, feeds: "from-config" });
  } catch (error) {
    await database.close();
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const { app, context } = built;

  let closing = false;
  /**
   * Draining (issue 17 item 2): not ready at once; keep serving for the readiness delay so a
   * load balancer's health check notices; then stop taking connections and sockets, tell
   * every socket to reconnect elsewhere (1012), let the in-flight requests finish (every
   * trade acknowledged with 201 has committed, the batcher's last calls included) and exit 0
   * — all within SHUTDOWN_TIMEOUT_MS, or exit 1 past it.
   */
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    context.readiness.startDraining();
    // A person's Ctrl-C at a terminal has no load balancer to wait for.
    const readinessDelayMs = signal === "SIGTERM" ? config.SHUTDOWN_READINESS_DELAY_MS : 0;
    app.log.info(
      { signal, readiness_delay_ms: readinessDelayMs, timeout_ms: config.SHUTDOWN_TIMEOUT_MS },
      "shutting down: not ready from now on; finishing the requests in flight, then exiting",
    );
    // A hung close must not keep the process alive for ever.
    const forceExit = setTimeout(() => {
      app.log.error(
        { timeout_ms: config.SHUTDOWN_TIMEOUT_MS },
        "shutdown timed out: exiting with work unfinished",
      );
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    forceExit.unref();
    try {
      await new Promise((resolve) => setTimeout(resolve, readinessDelayMs));
      // Stops listening, tells the sockets to reconnect elsewhere (stream hub, preClose),
      // answers requests on kept-alive connections 503 and waits for those in flight.
      await app.close();
      await context.tradeBatcher.idle();
      await database.close();
      app.log.info({ signal }, "shut down cleanly");
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(
    { url: config.PUBLIC_URL, database: database.kind },
    `platform ready: open ${config.PUBLIC_URL} (${database.kind === "pglite" ? `embedded database in ${config.DATA_DIR}` : "PostgreSQL"})`,
  );
}

main().catch((error) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
