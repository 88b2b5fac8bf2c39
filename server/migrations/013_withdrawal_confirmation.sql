-- Withdrawal confirmation by e-mail (issue 12, Deriv's pattern). A new withdrawal is
-- pending but unconfirmed: staff do not see it until the trader opens the single-use link
-- e-mailed to them; unconfirmed, it is cancelled (its hold released) when the link expires.
-- Owned by the funding module.

ALTER TABLE withdrawals ADD COLUMN email_confirmed_at timestamptz;
-- SHA-256 of the link's token: a database leak yields no working link.
ALTER TABLE withdrawals ADD COLUMN confirmation_token_hash text UNIQUE;
ALTER TABLE withdrawals ADD COLUMN confirmation_expires_at timestamptz;

-- Withdrawals requested before this rule were already in the staff queue: they count as
-- confirmed, so nothing disappears from it.
UPDATE withdrawals SET email_confirmed_at = created_at;

-- The expiry worker's scan: pending, unconfirmed, by when the link dies.
CREATE INDEX withdrawals_unconfirmed_expiry_idx ON withdrawals (confirmation_expires_at)
  WHERE status = 'pending' AND email_confirmed_at IS NULL;
