// `npm run ledger:check`: verifies the ledger's invariants on the configured database
// (DATABASE_URL, or the embedded one under DATA_DIR) and exits 1 if any is broken.
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/open-database.ts";
import { checkLedger } from "../ledger/ledger.ts";

const database = await openDatabase(loadConfig());
try {
  const violations = await checkLedger(database);
  if (violations.length === 0) {
    process.stdout.write(
      "ledger ok: every entry balances, every balance matches its postings, totals are zero\n",
    );
  } else {
    process.stdout.write(`ledger BROKEN (${violations.length}):\n  ${violations.join("\n  ")}\n`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
