-- Issue 12 item 8: staff are not traders and no one decides alone.
--
-- Roles: support (reads the back office), reviewer (decides the deposit, withdrawal and
-- identity queues), admin (payment methods, staff, broadcast, settings, and what a reviewer
-- may). Existing admins stay admins. The inline CHECK of 001 is named users_role_check by
-- PostgreSQL's default naming.
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check
  CHECK (role IN ('trader', 'support', 'reviewer', 'admin'));

-- Four eyes on money: a deposit or withdrawal above FOUR_EYES_THRESHOLD_DOLLARS keeps its
-- first approval here while it waits for a second reviewer, who must be someone else. The
-- row stays in its queue state (under_review / pending) until then.
ALTER TABLE deposits
  ADD COLUMN first_approved_by_user_id bigint REFERENCES users (id),
  ADD COLUMN first_approved_at timestamptz,
  ADD CONSTRAINT deposits_first_approval_check
    CHECK ((first_approved_by_user_id IS NULL) = (first_approved_at IS NULL)),
  ADD CONSTRAINT deposits_second_reviewer_check
    CHECK (status <> 'confirmed' OR first_approved_by_user_id IS NULL
           OR first_approved_by_user_id <> reviewed_by_user_id);

ALTER TABLE withdrawals
  ADD COLUMN first_approved_by_user_id bigint REFERENCES users (id),
  ADD COLUMN first_approved_at timestamptz,
  ADD CONSTRAINT withdrawals_first_approval_check
    CHECK ((first_approved_by_user_id IS NULL) = (first_approved_at IS NULL)),
  ADD CONSTRAINT withdrawals_second_reviewer_check
    CHECK (status <> 'paid' OR first_approved_by_user_id IS NULL
           OR first_approved_by_user_id <> reviewed_by_user_id);

-- Payment-method changes by one admin wait here until a second admin confirms them (or
-- anyone with the admin role discards them). `changes` holds only the proposed fields, the
-- same shape as PUT /admin/payment-methods/{id}'s body.
CREATE TABLE payment_method_changes (
  id bigserial PRIMARY KEY,
  payment_method_id text NOT NULL REFERENCES payment_methods (id),
  changes jsonb NOT NULL CHECK (jsonb_typeof(changes) = 'object'),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'discarded')),
  proposed_by_user_id bigint NOT NULL REFERENCES users (id),
  proposed_at timestamptz NOT NULL,
  decided_by_user_id bigint REFERENCES users (id),
  decided_at timestamptz,
  CHECK ((status = 'pending') = (decided_at IS NULL)),
  CHECK ((status = 'pending') = (decided_by_user_id IS NULL)),
  CHECK (status <> 'confirmed' OR decided_by_user_id <> proposed_by_user_id)
);

CREATE INDEX payment_method_changes_pending_idx
  ON payment_method_changes (proposed_at, id) WHERE status = 'pending';
