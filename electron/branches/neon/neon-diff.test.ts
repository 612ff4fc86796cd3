import { describe, expect, it } from 'vitest';
import { parseNeonSchemaDiff } from './neon-diff';

// The shape Neon's compare_schema returns: a unified diff of two `pg_dump --schema-only` scripts.
const DIFF = `--- a/neondb
+++ b/neondb
@@ -20,14 +20,25 @@
 SET default_table_access_method = heap;
 
 --
 -- Name: customers; Type: TABLE; Schema: public; Owner: neondb_owner
 --
 
 CREATE TABLE public.customers (
     id integer NOT NULL,
-    email character varying(100),
-    name text
+    email text NOT NULL,
+    name text,
+    tier text DEFAULT 'basic'::text NOT NULL
 );
 
+--
+-- Name: orders; Type: TABLE; Schema: public; Owner: neondb_owner
+--
+
+CREATE TABLE public.orders (
+    id integer NOT NULL,
+    customer_id integer
+);
+
@@ -50,9 +61,12 @@
-CREATE TABLE public.legacy (
-    id integer
-);
-
 ALTER TABLE ONLY public.customers
-    ADD CONSTRAINT customers_pkey PRIMARY KEY (id);
+    ADD CONSTRAINT customers_pkey PRIMARY KEY (id, email);
+
+ALTER TABLE ONLY public.customers
+    ADD CONSTRAINT customers_email_key UNIQUE (email);
+
+ALTER TABLE ONLY public.orders
+    ADD CONSTRAINT orders_pkey PRIMARY KEY (id);
@@ -80,3 +94,4 @@
-CREATE INDEX customers_name_idx ON public.customers USING btree (name);
+CREATE INDEX customers_name_idx ON public.customers USING hash (name);
+CREATE UNIQUE INDEX customers_tier_idx ON public.customers USING btree (tier);
+ALTER TABLE ONLY public.customers ALTER COLUMN id SET DEFAULT nextval('public.customers_id_seq'::regclass);
`;

describe('parseNeonSchemaDiff', () => {
  it('reads tables, columns, constraints, defaults and indexes out of a pg_dump diff', () => {
    const changes = parseNeonSchemaDiff(DIFF);
    const summary = changes.map((c) => `${c.kind} ${c.table}${c.name ? `.${c.name}` : ''}`).sort();
    expect(summary).toEqual(
      [
        'table-added public.orders',
        'table-removed public.legacy',
        'column-type-changed public.customers.email',
        'column-nullability-changed public.customers.email',
        'column-added public.customers.tier',
        'primary-key-changed public.customers.customers_pkey',
        'constraint-added public.customers.customers_email_key',
        'index-changed public.customers.customers_name_idx',
        'index-added public.customers.customers_tier_idx',
        'column-default-changed public.customers.id',
      ].sort(),
    );
    const email = changes.find((c) => c.kind === 'column-type-changed');
    expect(email).toMatchObject({ before: 'character varying(100)', after: 'text' });
    expect(changes.find((c) => c.kind === 'column-nullability-changed')).toMatchObject({ before: 'NULL', after: 'NOT NULL' });
    expect(changes.find((c) => c.kind === 'column-added')).toMatchObject({ before: null, after: "tier text DEFAULT 'basic'::text NOT NULL" });
    expect(changes.find((c) => c.kind === 'table-added')).toMatchObject({
      before: null,
      after: 'CREATE TABLE public.orders (\n  id integer NOT NULL,\n  customer_id integer\n)',
    });
    // The order schema/diff.ts uses: by table, then kind.
    expect(changes.map((c) => c.table)).toEqual([...changes.map((c) => c.table)].sort());
    expect(changes.find((c) => c.kind === 'primary-key-changed')).toMatchObject({ before: 'PRIMARY KEY (id)', after: 'PRIMARY KEY (id, email)' });
  });

  it('does not report a column whose line only gained a trailing comma', () => {
    const diff = `@@ -1,4 +1,5 @@
 CREATE TABLE public.t (
-    a integer
+    a integer,
+    b integer
 );
`;
    expect(parseNeonSchemaDiff(diff)).toEqual([{ kind: 'column-added', table: 'public.t', name: 'b', before: null, after: 'b integer' }]);
  });

  it('folds the constraints of an added table into the table itself', () => {
    const diff = `@@ -1,1 +1,6 @@
+CREATE TABLE public.n (
+    id integer NOT NULL
+);
+ALTER TABLE ONLY public.n
+    ADD CONSTRAINT n_pkey PRIMARY KEY (id);
`;
    expect(parseNeonSchemaDiff(diff)).toEqual([
      { kind: 'table-added', table: 'public.n', before: null, after: 'CREATE TABLE public.n (\n  id integer NOT NULL\n)' },
    ]);
  });

  it('leaves out a column change whose table the hunk does not show', () => {
    const diff = `@@ -40,3 +40,3 @@
     x integer,
-    y integer
+    y bigint
`;
    expect(parseNeonSchemaDiff(diff)).toEqual([]);
  });

  it('finds nothing in an empty diff', () => {
    expect(parseNeonSchemaDiff('')).toEqual([]);
  });
});
