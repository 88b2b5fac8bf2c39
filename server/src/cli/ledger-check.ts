// `npm run ledger:check`: reconciles the ledger on the configured database (DATABASE_URL, or
// the embedded one under DATA_DIR): the ledger's invariants, the funding records against the
// ledger, and a summary by account kind. Exits 1 if anything is broken.

import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/open-database.ts";
import { formatLedgerReport, ledgerReport } from "../reconciliation/reconciliation.ts";

const database = await openDatabase(loadConfig());
try {
  const report = await ledgerReport(database, new Date());
  process.stdout.write(formatLedgerReport(report));
  if (!report.ok) process.exitCode = 1;
} finally {
  await database.close();
}
