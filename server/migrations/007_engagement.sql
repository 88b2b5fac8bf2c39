-- Engagement (issue 6): notification delivery (live stream and Web Push, PRODUCT.md D8, D10)
-- and the recent-activity feed (PRODUCT.md D5). Referrals need nothing new: users carry
-- referral_code and referred_by_user_id since migration 001.
-- Never edit this file once it has landed; add a new numbered one.

-- The bell badge counts a trader's unread notifications on every page load.
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

-- A transactional outbox of notifications still to announce: a row is written in the
-- transaction that stores the notification, so only committed notifications are announced.
-- The delivery worker claims rows (FOR UPDATE SKIP LOCKED), queues a push for each of the
-- trader's subscriptions and deletes the row in one transaction, then tells the stream.
CREATE TABLE notification_deliveries (
  notification_id bigint PRIMARY KEY REFERENCES notifications (id),
  created_at timestamptz NOT NULL
);

-- A browser's PushSubscription (the spec's "push token"). An endpoint belongs to the trader
-- who saved it last: a shared browser signed in by someone else gets that person's messages.
CREATE TABLE push_subscriptions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_success_at timestamptz
);

CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);

-- One push of one notification to one subscription, retried with backoff until it is
-- accepted (row deleted), the subscription is gone (404/410: subscription deleted, and
-- its pushes with it) or the attempts run out (abandoned_at set, kept for inspection).
CREATE TABLE push_deliveries (
  id bigserial PRIMARY KEY,
  subscription_id bigint NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  notification_id bigint NOT NULL REFERENCES notifications (id),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  abandoned_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE INDEX push_deliveries_due_idx ON push_deliveries (next_attempt_at, id)
  WHERE abandoned_at IS NULL;
CREATE INDEX push_deliveries_subscription_idx ON push_deliveries (subscription_id);

-- The recent-activity feed reads the last day's confirmed deposits and paid withdrawals;
-- these keep that read small however long the history grows.
CREATE INDEX deposits_confirmed_recent_idx ON deposits (reviewed_at DESC)
  WHERE status = 'confirmed';
CREATE INDEX withdrawals_paid_recent_idx ON withdrawals (reviewed_at DESC)
  WHERE status = 'paid';
