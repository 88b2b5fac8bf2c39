-- Funding and the back office: payment methods, deposits, withdrawals, identity documents,
-- notifications, uploaded files and the staff audit log (issue 5, PRODUCT.md D4, D7, D9).
-- Never edit this file once it has landed; add a new numbered one.

-- Payment methods (SPEC §3, §9). Ids and kinds are fixed; staff fill in the rest. A fresh
-- install has no address or bank details, so every method shows "Currently unavailable"
-- until staff configure it: nothing here is an invented address.
CREATE TABLE payment_methods (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('crypto', 'bank', 'money_transfer', 'e_wallet')),
  name text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  is_recommended boolean NOT NULL DEFAULT false,
  wallet_address text,
  instructions jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(instructions) = 'array'),
  additional_details jsonb NOT NULL DEFAULT '{}'::jsonb
    CHECK (jsonb_typeof(additional_details) = 'object'),
  sort_order integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO payment_methods (id, kind, name, sort_order) VALUES
  ('bitcoin', 'crypto', 'Bitcoin', 1),
  ('litecoin', 'crypto', 'Litecoin', 2),
  ('ethereum', 'crypto', 'Ethereum', 3),
  ('perfect-money', 'e_wallet', 'Perfect Money', 4),
  ('bitcoin-cash', 'crypto', 'Bitcoin Cash', 5),
  ('usdt', 'crypto', 'USDT', 6),
  ('bank-transfer', 'bank', 'Bank Transfer', 7),
  ('western-union', 'money_transfer', 'Western Union', 8);

-- Uploaded files: receipts and identity documents. The bytes live on disk under
-- DATA_DIR/uploads under `storage_name`, a name the server made; the client's file name is
-- kept only as text for staff to read, never used as a path.
CREATE TABLE uploads (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  purpose text NOT NULL CHECK (purpose IN ('receipt', 'identity')),
  storage_name text NOT NULL UNIQUE CHECK (storage_name ~ '^[a-z0-9]{32}\.(jpg|png|webp|pdf)$'),
  content_type text NOT NULL
    CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
  size_bytes bigint NOT NULL CHECK (size_bytes > 0),
  sha256 text NOT NULL,
  original_name text,
  created_at timestamptz NOT NULL
);

CREATE INDEX uploads_user_idx ON uploads (user_id);

-- Deposits: awaiting_payment → under_review → confirmed | rejected; awaiting_payment →
-- cancelled. Confirmation is the one credit (ledger entry kind 'deposit', reference
-- 'deposit:<id>'), made in the transaction that moves the status.
CREATE TABLE deposits (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  payment_method_id text NOT NULL REFERENCES payment_methods (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'USD',
  transaction_hash text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'awaiting_payment'
    CHECK (status IN ('awaiting_payment', 'under_review', 'confirmed', 'rejected', 'cancelled')),
  receipt_upload_id bigint REFERENCES uploads (id),
  receipt_uploaded_at timestamptz,
  reviewed_by_user_id bigint REFERENCES users (id),
  reviewed_at timestamptz,
  rejection_reason text,
  journal_entry_id bigint REFERENCES journal_entries (id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (status NOT IN ('under_review', 'confirmed') OR receipt_upload_id IS NOT NULL),
  CHECK ((status = 'confirmed') = (journal_entry_id IS NOT NULL)),
  CHECK (status <> 'rejected' OR rejection_reason IS NOT NULL)
);

CREATE INDEX deposits_user_idx ON deposits (user_id, created_at DESC, id DESC);
CREATE INDEX deposits_status_idx ON deposits (status, created_at, id);

-- Withdrawals: pending → paid | rejected; pending → cancelled. The amount is held (trader
-- real → withdrawals:held) in the transaction that inserts the row; paid moves it on
-- (withdrawals:held → payouts:sent), rejected and cancelled release it back.
CREATE TABLE withdrawals (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  payment_method_id text NOT NULL REFERENCES payment_methods (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'USD',
  transaction_hash text NOT NULL UNIQUE,
  withdrawal_details jsonb NOT NULL CHECK (jsonb_typeof(withdrawal_details) = 'object'),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'paid', 'rejected', 'cancelled')),
  hold_entry_id bigint NOT NULL REFERENCES journal_entries (id),
  resolution_entry_id bigint REFERENCES journal_entries (id),
  reviewed_by_user_id bigint REFERENCES users (id),
  reviewed_at timestamptz,
  rejection_reason text,
  payout_reference text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((status = 'pending') = (resolution_entry_id IS NULL)),
  CHECK (status <> 'paid' OR payout_reference IS NOT NULL),
  CHECK (status <> 'rejected' OR rejection_reason IS NOT NULL)
);

CREATE INDEX withdrawals_user_idx ON withdrawals (user_id, created_at DESC, id DESC);
CREATE INDEX withdrawals_status_idx ON withdrawals (status, created_at, id);

-- Money entries of funding are made once per deposit or withdrawal: the database refuses a
-- second one even if a code path forgot its status guard.
CREATE UNIQUE INDEX journal_entries_funding_once_idx ON journal_entries (kind, reference)
  WHERE kind IN ('deposit', 'withdrawal_hold', 'withdrawal_release', 'withdrawal_paid');

-- Identity documents: pending → approved (sets users.kyc_verified_at) | rejected.
CREATE TABLE verification_documents (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  id_type text CHECK (id_type IN ('passport', 'national_id', 'drivers_license')),
  upload_id bigint NOT NULL REFERENCES uploads (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  terms_accepted_at timestamptz NOT NULL,
  reviewed_by_user_id bigint REFERENCES users (id),
  reviewed_at timestamptz,
  rejection_reason text,
  created_at timestamptz NOT NULL,
  CHECK (status <> 'rejected' OR rejection_reason IS NOT NULL)
);

CREATE INDEX verification_documents_user_idx ON verification_documents (user_id, created_at DESC);
CREATE INDEX verification_documents_status_idx ON verification_documents (status, created_at, id);
-- One document under review per trader at a time.
CREATE UNIQUE INDEX verification_documents_one_pending_idx ON verification_documents (user_id)
  WHERE status = 'pending';

-- Notifications for the trader (SPEC §3 "Notification"); the page that lists them comes later.
CREATE TABLE notifications (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  kind text NOT NULL,
  title text NOT NULL,
  message text NOT NULL,
  reference text,
  created_at timestamptz NOT NULL,
  read_at timestamptz
);

CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, id DESC);

-- Every staff action: who, what, when, before and after, from which address. Append-only:
-- a trigger refuses UPDATE, DELETE and TRUNCATE, so not even a bug can rewrite history.
CREATE TABLE admin_audit_log (
  id bigserial PRIMARY KEY,
  actor_user_id bigint REFERENCES users (id),
  actor_label text NOT NULL,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text NOT NULL,
  before jsonb,
  after jsonb,
  ip text,
  created_at timestamptz NOT NULL
);

CREATE INDEX admin_audit_log_created_idx ON admin_audit_log (created_at DESC, id DESC);
CREATE INDEX admin_audit_log_actor_idx ON admin_audit_log (actor_user_id, created_at DESC);
CREATE INDEX admin_audit_log_target_idx ON admin_audit_log (target_type, target_id);
CREATE INDEX admin_audit_log_action_idx ON admin_audit_log (action, created_at DESC);

CREATE FUNCTION admin_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'admin_audit_log is append-only'; END $$;

CREATE TRIGGER admin_audit_log_no_update_or_delete BEFORE UPDATE OR DELETE ON admin_audit_log
  FOR EACH ROW EXECUTE FUNCTION admin_audit_log_append_only();

CREATE TRIGGER admin_audit_log_no_truncate BEFORE TRUNCATE ON admin_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_log_append_only();
