/**
 * Each table has one owner: the module (folder of server/src, or the file of
 * server/sql/functions named after it) whose SQL writes it, locks it and answers for its
 * invariants. Other modules call the owner's functions. server/test/table-owners.test.ts
 * reads every SQL text of the server and fails on a write or lock by any other module, and
 * on a read that is not declared below. docs/architecture.md shows the same map.
 */
export const tableOwners = {
  schema_migrations: "db",
  users: "users",
  sessions: "auth",
  email_tokens: "auth",
  totp_secrets: "auth",
  recovery_codes: "auth",
  passkeys: "auth",
  auth_challenges: "auth",
  sign_in_attempts: "auth",
  spent_proof_of_work: "auth",
  account_email_requests: "auth",
  outbox_emails: "mail",
  ledger_accounts: "ledger",
  journal_entries: "ledger",
  postings: "ledger",
  idempotency_keys: "idempotency",
  trades: "trading",
  open_trades: "trading",
  trade_credit_entries: "trading",
  trade_audit_windows: "trading",
  trade_chain_heads: "trading",
  audit_chain_head: "audit",
  journal_checkpoints: "journal",
  journal_checkpoint_heads: "journal",
  price_ticks: "prices",
  candles_1s: "prices",
  candles_1m: "prices",
  feed_halts: "prices",
  payment_methods: "funding",
  payment_method_changes: "funding",
  deposits: "funding",
  withdrawals: "funding",
  verification_documents: "funding",
  uploads: "uploads",
  notifications: "notifications",
  notification_deliveries: "notifications",
  push_subscriptions: "push",
  push_deliveries: "push",
  admin_audit_log: "audit",
  losing_accounts_snapshots: "disclosure",
  reality_check_settings: "responsible-trading",
  account_closures: "account-closure",
  trader_limits: "responsible-trading",
  trader_exclusions: "responsible-trading",
  receipt_signing_keys: "receipts",
} as const;

export type OwnedTable = keyof typeof tableOwners;

/**
 * Reads across modules, each with its reason. Writes never cross: a module that must change
 * another's table calls the owner (e.g. funding approves an identity through
 * `users.markIdentityVerified`).
 */
export const crossModuleReads: ReadonlyArray<{
  module: string;
  tables: readonly OwnedTable[];
  why: string;
}> = [
  {
    module: "reconciliation",
    tables: ["deposits", "withdrawals", "trades", "ledger_accounts", "journal_entries", "postings"],
    why: "it checks the funding records and the trades' credits against the ledger: reading both is its whole job",
  },
  {
    module: "testing",
    tables: ["totp_secrets", "users"],
    why: "test support signs staff in as their authenticator app would: from the stored TOTP secret",
  },
  {
    module: "admin",
    tables: ["users", "sessions", "ledger_accounts", "journal_entries", "postings"],
    why: "the back office's user search and detail join a trader's account, sessions and ledger",
  },
  {
    module: "activity",
    tables: ["deposits", "withdrawals", "payment_methods"],
    why: "the anonymised feed of recent confirmed deposits and paid withdrawals",
  },
  {
    module: "auth",
    tables: ["users"],
    why: "sign-in, sessions and e-mail tokens read the account they authenticate",
  },
  {
    module: "audit",
    tables: ["users"],
    why: "the audit log names each entry's actor",
  },
  {
    module: "statements",
    tables: [
      "users",
      "sessions",
      "sign_in_attempts",
      "ledger_accounts",
      "journal_entries",
      "postings",
      "trades",
      "trade_credit_entries",
      "trade_audit_windows",
      "deposits",
      "withdrawals",
      "payment_methods",
      "uploads",
      "verification_documents",
      "notifications",
    ],
    why: "statements, the data export and the auditors' exports read the records as kept, across modules, and write nothing",
  },
  {
    module: "funding",
    tables: ["users", "uploads"],
    why: "staff views show the trader and the receipt or document of a funding row",
  },
  {
    module: "disclosure",
    tables: ["users", "ledger_accounts", "journal_entries", "postings"],
    why: "the share of losing accounts is computed from the ledger's trade postings of traders' real accounts",
  },
  {
    module: "trading",
    tables: ["trader_limits", "trader_exclusions"],
    why: "place_trades checks the trader's own limits and exclusions inside the trade's statement, so no concurrency gets past them",
  },
  {
    module: "journal",
    tables: [
      "ledger_accounts",
      "journal_entries",
      "postings",
      "trades",
      "trade_chain_heads",
      "admin_audit_log",
      "audit_chain_head",
      "receipt_signing_keys",
    ],
    why: "checkpoints sign the chains' heads and journal:verify recomputes every chained record; neither writes them",
  },
  {
    module: "receipts",
    tables: ["journal_checkpoint_heads", "journal_checkpoints"],
    why: "a receipt names the signed checkpoint that covers its trade's record",
  },
  {
    module: "responsible-trading",
    tables: ["deposits"],
    why: "deposit limits count the deposits requested in each period, inside the deposit's transaction",
  },
  {
    module: "account-closure",
    tables: ["open_trades", "deposits", "withdrawals", "ledger_accounts"],
    why: "a requested closure waits until the trader has no open trade, no pending deposit or withdrawal and no real money: it reads those, and writes nothing of theirs",
  },
  {
    module: "mail",
    tables: ["users"],
    why: "no e-mail is queued to the address of a closed account (issue 14 item 7)",
  },
];
