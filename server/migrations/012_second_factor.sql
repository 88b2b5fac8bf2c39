-- Second factors (issue 12): TOTP with recovery codes, passkeys, sign-ins that wait for
-- their second factor (or for a staff member's enrolment), and step-up on sessions.
-- Owned by the auth module.

CREATE TABLE totp_secrets (
  user_id bigint PRIMARY KEY REFERENCES users (id),
  secret_base32 text NOT NULL,
  -- Null while enrolling: the secret is shown, but sign-in asks for no code until a code
  -- made from it has been confirmed.
  confirmed_at timestamptz,
  -- The last 30-second step whose code was accepted: a code is good once (RFC 6238 §5.2).
  last_used_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL
);

CREATE TABLE recovery_codes (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE INDEX recovery_codes_unused_idx ON recovery_codes (user_id) WHERE used_at IS NULL;

CREATE TABLE passkeys (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  -- base64url, as WebAuthn gives it
  credential_id text NOT NULL UNIQUE,
  public_key bytea NOT NULL,
  sign_count bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);

CREATE INDEX passkeys_user_idx ON passkeys (user_id);

-- A short-lived, single-use step of an authentication ceremony, named by an opaque token
-- the client holds (only its hash is stored): a sign-in that passed the password and waits
-- for its second factor, a staff enrolment, a WebAuthn challenge.
CREATE TABLE auth_challenges (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  -- Null only for a passwordless passkey sign-in, which learns the user from the passkey.
  user_id bigint REFERENCES users (id),
  purpose text NOT NULL CHECK (purpose IN (
    'second_factor', 'enrolment', 'passkey_sign_in', 'passkey_registration', 'step_up_passkey'
  )),
  -- The WebAuthn challenge (base64url) for the passkey purposes.
  webauthn_challenge text,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  consumed_at timestamptz
);

CREATE INDEX auth_challenges_expiry_idx ON auth_challenges (expires_at) WHERE consumed_at IS NULL;

-- When this session last proved a fresh second factor (or, with 2FA off, the password).
-- Money leaving and changes to the account's keys need it within the step-up window.
ALTER TABLE sessions ADD COLUMN stepped_up_at timestamptz;
