// `npm run journal:verify`: recomputes every chain of the journal (postings, trades placed and
// settled, the staff audit log) on the configured database (DATABASE_URL, or the embedded one
// under DATA_DIR) and checks every signed checkpoint. Exits 1 naming the first record that
// was edited, deleted or inserted out of place.

import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/open-database.ts";
import { formatJournalVerification, verifyJournalConsistently } from "../journal/journal-verify.ts";

const database = await openDatabase(loadConfig());
try {
  const verification = await verifyJournalConsistently(database, new Date());
  process.stdout.write(formatJournalVerification(verification));
  if (!verification.ok) process.exitCode = 1;
} finally {
  await database.close();
}
