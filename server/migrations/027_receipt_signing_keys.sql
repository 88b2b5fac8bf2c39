-- The Ed25519 keys that sign trade receipts (issue 15 item 1), owned by the receipts module:
-- each process registers the key it signs with on start, so every key that ever signed a
-- receipt stays published (GET /api/v1/receipts/keys) after it is replaced.
CREATE TABLE receipt_signing_keys (
  key_id text PRIMARY KEY,
  -- The raw 32-byte public key, base64.
  public_key text NOT NULL UNIQUE,
  first_used_at timestamptz NOT NULL
);
