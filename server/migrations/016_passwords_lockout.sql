-- Passwords and a lockout that cannot be used against the owner (issue 12 items 6 and 7).
-- Owned by the auth module.

-- ALTCHA proof-of-work challenges already used: a solved challenge opens one request, so
-- each is remembered (by its HMAC signature) until it expires and then forgotten.
CREATE TABLE spent_proof_of_work (
  signature text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

CREATE INDEX spent_proof_of_work_expiry_idx ON spent_proof_of_work (expires_at);

-- Forgot-password and resend-verification requests waiting for the worker. The request only
-- inserts a row, whether or not the address has an account, so the reply takes the same
-- time either way; the worker looks the address up, issues the token and queues the e-mail.
CREATE TABLE account_email_requests (
  id bigserial PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('reset_password', 'verify_email')),
  email text NOT NULL,
  created_at timestamptz NOT NULL
);
