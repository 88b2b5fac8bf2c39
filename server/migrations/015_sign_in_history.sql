-- Sign-in history (issue 12, item 5): every sign-in attempt on a known account, for the
-- trader's Security page, the back office and the new-device e-mail. Owned by the auth module.
-- Attempts on unknown addresses are not kept: they belong to no one who could read them.

CREATE TABLE sign_in_attempts (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  attempted_at timestamptz NOT NULL,
  ip text NOT NULL,
  user_agent text,
  -- A short readable label derived from the user agent ("Chrome on Windows").
  browser text NOT NULL,
  -- The browser label and the IP's network (IPv4 /24, IPv6 /48): what "the same device"
  -- means for the new-device e-mail (auth/device-label.ts says why).
  device_key text NOT NULL,
  result text NOT NULL CHECK (
    result IN ('succeeded', 'wrong_password', 'second_factor_failed', 'challenge_refused')
  ),
  -- The session made by a successful sign-in (null for every other result).
  session_id bigint REFERENCES sessions (id),
  CHECK ((result = 'succeeded') = (session_id IS NOT NULL))
);

CREATE INDEX sign_in_attempts_user_idx ON sign_in_attempts (user_id, attempted_at DESC, id DESC);

-- "Has this user signed in from this device before?" is one index probe.
CREATE INDEX sign_in_attempts_device_idx ON sign_in_attempts (user_id, device_key)
  WHERE result = 'succeeded';
