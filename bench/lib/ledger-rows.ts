// The two closing rows of every bench that writes money: the ledger's invariants and the
// journal's chains, recomputed after the run (platform-child.ts `ledgerCheck`).
import type { ChildApi } from "../platform-child.ts";
import { fixed, type ResultRow } from "./stats.ts";

export type LedgerCheck = Awaited<ReturnType<ChildApi["ledgerCheck"]>>;

export function ledgerCheckRows(ledger: LedgerCheck): ResultRow[] {
  return [
    {
      metric: "ledger invariants after (checkLedger)",
      value: `${ledger.violationCount} violations (${ledger.entries} entries, ${ledger.postings} postings, ${fixed(ledger.seconds, 1)} s)`,
      target: "0",
      met: ledger.violationCount === 0,
    },
    {
      metric: "journal chains after (journal:verify)",
      value: `${ledger.journalProblem ?? "all hold"} (${ledger.journalRecords} records, ${fixed(ledger.journalSeconds, 1)} s)`,
      target: "all hold",
      met: ledger.journalProblem === null,
    },
  ];
}
