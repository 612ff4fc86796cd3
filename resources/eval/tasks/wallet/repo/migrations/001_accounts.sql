-- The accounts: one row per account, with its currency and its balance in integer cents.
CREATE TABLE accounts (
  id            text      PRIMARY KEY,
  owner         text      NOT NULL,
  currency      char(3)   NOT NULL,
  balance_cents bigint    NOT NULL DEFAULT 0
);
