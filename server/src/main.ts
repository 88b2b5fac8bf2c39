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
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // First of all: a load balancer polling /ready stops sending traffic here.
    context.readiness.startDraining();
    app.log.info({ signal }, "shutting down");
    // A hung close must not keep the process alive for ever.
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    try {
      await app.close();
      await database.close();
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
