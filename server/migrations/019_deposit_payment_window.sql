-- Unpaid deposits expire (issue 13 item 4): a deposit opened by "Fund Account" waits for
-- its payment proof until payment_expires_at (DEPOSIT_PAYMENT_WINDOW_HOURS after it was
-- opened); the expiry worker then moves it to 'expired' and tells the trader, which frees
-- its place under the cap of deposits awaiting payment. Owned by the funding module.

ALTER TABLE deposits DROP CONSTRAINT deposits_status_check;
ALTER TABLE deposits ADD CONSTRAINT deposits_status_check
  CHECK (status IN ('awaiting_payment', 'under_review', 'confirmed', 'rejected', 'cancelled',
                    'expired'));

ALTER TABLE deposits ADD COLUMN payment_expires_at timestamptz;
-- Deposits opened before this rule get the default window from when they were opened: the
-- worker expires the long-forgotten ones on its first pass.
UPDATE deposits SET payment_expires_at = created_at + interval '24 hours';
ALTER TABLE deposits ALTER COLUMN payment_expires_at SET NOT NULL;

-- The expiry worker's scan: awaiting payment, by when the window closes.
CREATE INDEX deposits_awaiting_expiry_idx ON deposits (payment_expires_at)
  WHERE status = 'awaiting_payment';
