-- Foundation: traders, sessions, e-mail tokens, the e-mail outbox and the double-entry ledger.
-- Never edit this file once it has landed; add a new numbered one.

CREATE TABLE users (
  id bigserial PRIMARY KEY,
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  username text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  role text NOT NULL DEFAULT 'trader' CHECK (role IN ('trader', 'admin')),
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone_number text NOT NULL,
  country text NOT NULL,
  plan text NOT NULL DEFAULT 'Basic',
  referral_code text NOT NULL UNIQUE,
  referred_by_user_id bigint REFERENCES users (id),
  email_verified_at timestamptz,
  kyc_verified_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE INDEX users_referred_by_idx ON users (referred_by_user_id);

CREATE TABLE sessions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip text,
  user_agent text
);

CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;

CREATE TABLE email_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose) WHERE used_at IS NULL;

CREATE TABLE outbox_emails (
  id bigserial PRIMARY KEY,
  recipient text NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  body_html text NOT NULL,
  created_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  sent_at timestamptz,
  last_error text
);

CREATE INDEX outbox_emails_due_idx ON outbox_emails (next_attempt_at) WHERE sent_at IS NULL;

-- Ledger. A trader has a real and a practice account per currency; system accounts have no
-- user. Balances change only together with postings, in the same transaction.
CREATE TABLE ledger_accounts (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES users (id),
  code text NOT NULL,
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  balance_cents bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) = (code LIKE '%:%')),
  CHECK (user_id IS NULL OR code IN ('real', 'practice')),
  -- A trader's balance can never go negative; system accounts mirror them and may.
  CHECK (user_id IS NULL OR balance_cents >= 0)
);

CREATE UNIQUE INDEX ledger_accounts_trader_idx ON ledger_accounts (user_id, code, currency)
  WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_system_idx ON ledger_accounts (code, currency)
  WHERE user_id IS NULL;

CREATE TABLE journal_entries (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN (
    'deposit', 'trade_stake', 'trade_payout', 'trade_refund', 'withdrawal_hold',
    'withdrawal_release', 'withdrawal_paid', 'practice_topup', 'adjustment'
  )),
  reference text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE INDEX journal_entries_reference_idx ON journal_entries (reference);

-- A posting's amount is signed: positive raises the account's balance, negative lowers it.
CREATE TABLE postings (
  id bigserial PRIMARY KEY,
  entry_id bigint NOT NULL REFERENCES journal_entries (id),
  account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0)
);

CREATE INDEX postings_entry_idx ON postings (entry_id);
CREATE INDEX postings_account_idx ON postings (account_id);

INSERT INTO ledger_accounts (user_id, code, currency) VALUES
  (NULL, 'house:real', 'USD'),
  (NULL, 'house:practice', 'USD'),
  (NULL, 'deposits:clearing', 'USD'),
  (NULL, 'withdrawals:held', 'USD'),
  (NULL, 'payouts:sent', 'USD');
