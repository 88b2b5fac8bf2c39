-- Issue 13 item 3: fees as configuration (PRODUCT.md D11 "Fees: none unless configured").
-- Never edit this file once it has landed; add a new numbered one.
--
-- Each payment method has a deposit fee and a withdrawal fee: a fixed part in cents plus a
-- percentage in basis points (1 bp = 0.01 %), integers, 0 and 0 by default (no fee). The
-- bounds are those of domain/src/fees.ts (fee_fixed_cents_max, fee_basis_points_max).
ALTER TABLE payment_methods
  ADD COLUMN deposit_fee_fixed_cents bigint NOT NULL DEFAULT 0
    CHECK (deposit_fee_fixed_cents BETWEEN 0 AND 100000),
  ADD COLUMN deposit_fee_basis_points integer NOT NULL DEFAULT 0
    CHECK (deposit_fee_basis_points BETWEEN 0 AND 5000),
  ADD COLUMN withdrawal_fee_fixed_cents bigint NOT NULL DEFAULT 0
    CHECK (withdrawal_fee_fixed_cents BETWEEN 0 AND 100000),
  ADD COLUMN withdrawal_fee_basis_points integer NOT NULL DEFAULT 0
    CHECK (withdrawal_fee_basis_points BETWEEN 0 AND 5000);

-- The fee of a deposit or withdrawal is computed once, when it is created, and kept on the
-- row: approval and payout post exactly the fee the trader was shown, whatever staff set
-- later. It is taken out of the amount (deposit: amount − fee credited; withdrawal: the
-- whole amount held, amount − fee paid out), so it is always below the amount.
ALTER TABLE deposits
  ADD COLUMN fee_cents bigint NOT NULL DEFAULT 0,
  ADD CONSTRAINT deposits_fee_check CHECK (fee_cents >= 0 AND fee_cents < amount_cents);

ALTER TABLE withdrawals
  ADD COLUMN fee_cents bigint NOT NULL DEFAULT 0,
  ADD CONSTRAINT withdrawals_fee_check CHECK (fee_cents >= 0 AND fee_cents < amount_cents);

-- The system account fees are posted to: a confirmed deposit's fee (deposits:clearing →
-- fees:collected) and a paid withdrawal's (withdrawals:held → fees:collected).
INSERT INTO ledger_accounts (user_id, code, currency) VALUES (NULL, 'fees:collected', 'USD');
