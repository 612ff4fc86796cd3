/**
 * One schema and one set of edits that together make every kind of schema change, with the diff
 * they must produce: shared by the PGlite and the real-Postgres tests.
 */
import type { SchemaChange } from '../../../shared/branches';

export const BASE_SQL = `
CREATE TABLE users (
  id serial PRIMARY KEY, email text NOT NULL, name text, age int DEFAULT 0,
  CONSTRAINT users_email_key UNIQUE (email), CONSTRAINT users_age_check CHECK (age >= 0));
CREATE TABLE orders (
  id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id int REFERENCES users(id),
  total numeric(10,2) NOT NULL, note varchar(80));
CREATE INDEX orders_total_idx ON orders (total);
CREATE INDEX orders_note_idx ON orders (note);
CREATE TABLE legacy (id int);
CREATE TABLE tags (name text);
CREATE SCHEMA billing;
CREATE TABLE billing.invoices (id bigint PRIMARY KEY, amount int);
`;

export const BRANCH_EDITS_SQL = `
CREATE TABLE audit (id int PRIMARY KEY, at timestamptz DEFAULT now());
DROP TABLE legacy;
ALTER TABLE users ADD COLUMN phone text, DROP COLUMN name, ALTER COLUMN age TYPE bigint,
  ALTER COLUMN age SET DEFAULT 18, ALTER COLUMN email DROP NOT NULL;
ALTER TABLE users DROP CONSTRAINT users_age_check, ADD CONSTRAINT users_age_check CHECK (age >= 18);
ALTER TABLE users DROP CONSTRAINT users_email_key;
ALTER TABLE orders ALTER COLUMN note SET NOT NULL;
ALTER TABLE orders DROP CONSTRAINT orders_user_id_fkey,
  ADD CONSTRAINT orders_user_fk FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE orders ADD CONSTRAINT orders_note_key UNIQUE (note);
DROP INDEX orders_total_idx;
CREATE INDEX orders_user_idx ON orders (user_id);
DROP INDEX orders_note_idx;
CREATE INDEX orders_note_idx ON orders (lower(note));
ALTER TABLE tags ADD PRIMARY KEY (name);
ALTER TABLE billing.invoices DROP CONSTRAINT invoices_pkey, ADD PRIMARY KEY (id, amount);
-- Baton's bookkeeping is not the user's schema.
CREATE TABLE baton_migrations (version text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
`;

/** The diff of the branch (base + edits) against its parent (base), in the order it must come. */
export const EXPECTED_CHANGES: readonly SchemaChange[] = [
  { kind: 'column-nullability-changed', table: 'billing.invoices', name: 'amount', before: 'NULL', after: 'NOT NULL' },
  { kind: 'primary-key-changed', table: 'billing.invoices', name: 'invoices_pkey', before: 'PRIMARY KEY (id)', after: 'PRIMARY KEY (id, amount)' },
  {
    kind: 'table-added',
    table: 'public.audit',
    before: null,
    after: 'CREATE TABLE public.audit (\n  id integer NOT NULL,\n  at timestamp with time zone DEFAULT now(),\n  CONSTRAINT audit_pkey PRIMARY KEY (id)\n)',
  },
  { kind: 'table-removed', table: 'public.legacy', before: 'CREATE TABLE public.legacy (\n  id integer\n)', after: null },
  { kind: 'column-nullability-changed', table: 'public.orders', name: 'note', before: 'NULL', after: 'NOT NULL' },
  { kind: 'constraint-added', table: 'public.orders', name: 'orders_note_key', before: null, after: 'UNIQUE (note)' },
  {
    kind: 'constraint-added',
    table: 'public.orders',
    name: 'orders_user_fk',
    before: null,
    after: 'FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE',
  },
  { kind: 'constraint-removed', table: 'public.orders', name: 'orders_user_id_fkey', before: 'FOREIGN KEY (user_id) REFERENCES users(id)', after: null },
  {
    kind: 'index-added',
    table: 'public.orders',
    name: 'orders_user_idx',
    before: null,
    after: 'CREATE INDEX orders_user_idx ON public.orders USING btree (user_id)',
  },
  {
    kind: 'index-removed',
    table: 'public.orders',
    name: 'orders_total_idx',
    before: 'CREATE INDEX orders_total_idx ON public.orders USING btree (total)',
    after: null,
  },
  {
    kind: 'index-changed',
    table: 'public.orders',
    name: 'orders_note_idx',
    before: 'CREATE INDEX orders_note_idx ON public.orders USING btree (note)',
    after: 'CREATE INDEX orders_note_idx ON public.orders USING btree (lower((note)::text))',
  },
  { kind: 'column-nullability-changed', table: 'public.tags', name: 'name', before: 'NULL', after: 'NOT NULL' },
  { kind: 'primary-key-changed', table: 'public.tags', name: 'tags_pkey', before: null, after: 'PRIMARY KEY (name)' },
  { kind: 'column-added', table: 'public.users', name: 'phone', before: null, after: 'phone text' },
  { kind: 'column-removed', table: 'public.users', name: 'name', before: 'name text', after: null },
  { kind: 'column-type-changed', table: 'public.users', name: 'age', before: 'integer', after: 'bigint' },
  { kind: 'column-nullability-changed', table: 'public.users', name: 'email', before: 'NOT NULL', after: 'NULL' },
  { kind: 'column-default-changed', table: 'public.users', name: 'age', before: '0', after: '18' },
  { kind: 'constraint-removed', table: 'public.users', name: 'users_email_key', before: 'UNIQUE (email)', after: null },
  { kind: 'constraint-changed', table: 'public.users', name: 'users_age_check', before: 'CHECK (age >= 0)', after: 'CHECK (age >= 18)' },
];
