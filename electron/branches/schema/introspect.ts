/**
 * Reads a database's user schema from pg_catalog: the same four queries on PGlite and on a
 * Postgres server, so a branch and its parent are always read the same way.
 */
import type { Queryable } from './index';
import {
  compareText,
  type ColumnSnapshot,
  type ConstraintKind,
  type ConstraintSnapshot,
  type NamedDefinition,
  type SchemaSnapshot,
  type TableSnapshot,
} from './snapshot';

/** Baton's own versions table lives in every migrated branch; it is bookkeeping, not the user's schema. */
export const BATON_MIGRATIONS_TABLE = 'baton_migrations';

// Ordinary and partitioned tables in user schemas; temporary and TOAST schemas are per-session noise.
const USER_TABLES = `
  c.relkind IN ('r', 'p')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\\_toast%'
  AND n.nspname NOT LIKE 'pg\\_temp\\_%'
  AND NOT (c.relname = '${BATON_MIGRATIONS_TABLE}' AND n.nspname = 'public')`;

const TABLES_SQL = `
SELECT n.nspname AS schema, c.relname AS table
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE ${USER_TABLES}`;

const COLUMNS_SQL = `
SELECT n.nspname AS schema, c.relname AS table, a.attname AS column,
  pg_catalog.format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
  pg_catalog.pg_get_expr(d.adbin, d.adrelid) AS default_expr,
  a.attidentity::text AS identity, a.attgenerated::text AS generated
FROM pg_catalog.pg_attribute a
  JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attnum > 0 AND NOT a.attisdropped AND ${USER_TABLES}
ORDER BY n.nspname, c.relname, a.attnum`;

// 'n' (catalogued NOT NULL, Postgres 18) is left out: nullability is read from the column.
const CONSTRAINTS_SQL = `
SELECT n.nspname AS schema, c.relname AS table, con.conname AS name, con.contype::text AS type,
  pg_catalog.pg_get_constraintdef(con.oid, true) AS definition
FROM pg_catalog.pg_constraint con
  JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE con.contype IN ('p', 'u', 'c', 'f', 'x') AND ${USER_TABLES}`;

// An index that backs a primary key, unique or exclusion constraint is reported as that constraint.
const INDEXES_SQL = `
SELECT n.nspname AS schema, c.relname AS table, i.relname AS name,
  pg_catalog.pg_get_indexdef(x.indexrelid) AS definition
FROM pg_catalog.pg_index x
  JOIN pg_catalog.pg_class i ON i.oid = x.indexrelid
  JOIN pg_catalog.pg_class c ON c.oid = x.indrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE ${USER_TABLES}
  AND NOT EXISTS (
    SELECT 1 FROM pg_catalog.pg_constraint con
    WHERE con.conindid = x.indexrelid AND con.conrelid = x.indrelid AND con.contype IN ('p', 'u', 'x'))`;

interface TableRow {
  schema: string;
  table: string;
}
interface ColumnRow extends TableRow {
  column: string;
  type: string;
  not_null: boolean;
  default_expr: string | null;
  identity: string;
  generated: string;
}
interface ConstraintRow extends TableRow {
  name: string;
  type: string;
  definition: string;
}
interface IndexRow extends TableRow {
  name: string;
  definition: string;
}

interface MutableTable {
  name: string;
  columns: ColumnSnapshot[];
  primaryKey: NamedDefinition | null;
  constraints: ConstraintSnapshot[];
  indexes: NamedDefinition[];
}

const CONSTRAINT_KINDS: Readonly<Record<string, ConstraintKind>> = { u: 'unique', c: 'check', f: 'foreign-key', x: 'exclusion' };

/** Reads every user table (all schemas but the system ones, and not `public.baton_migrations`). */
export async function introspectSchema(q: Queryable): Promise<SchemaSnapshot> {
  // One after another: a pg Client and PGlite each run a single query at a time anyway.
  const tables = (await q.query<TableRow>(TABLES_SQL)).rows;
  const columns = (await q.query<ColumnRow>(COLUMNS_SQL)).rows;
  const constraints = (await q.query<ConstraintRow>(CONSTRAINTS_SQL)).rows;
  const indexes = (await q.query<IndexRow>(INDEXES_SQL)).rows;

  const byName = new Map<string, MutableTable>();
  for (const row of tables) {
    const name = qualified(row);
    byName.set(name, { name, columns: [], primaryKey: null, constraints: [], indexes: [] });
  }
  const tableOf = (row: TableRow): MutableTable | undefined => byName.get(qualified(row));

  for (const row of columns) {
    tableOf(row)?.columns.push({ name: row.column, type: row.type, nullable: !row.not_null, default: columnDefault(row) });
  }
  for (const row of constraints) {
    const table = tableOf(row);
    if (!table) continue;
    if (row.type === 'p') table.primaryKey = { name: row.name, definition: row.definition };
    else table.constraints.push({ name: row.name, kind: CONSTRAINT_KINDS[row.type] ?? 'check', definition: row.definition });
  }
  for (const row of indexes) tableOf(row)?.indexes.push({ name: row.name, definition: row.definition });

  const result: TableSnapshot[] = [...byName.values()]
    .map((t) => ({
      ...t,
      constraints: t.constraints.sort((a, b) => compareText(a.name, b.name)),
      indexes: t.indexes.sort((a, b) => compareText(a.name, b.name)),
    }))
    .sort((a, b) => compareText(a.name, b.name));
  return { tables: result };
}

function qualified(row: TableRow): string {
  return `${row.schema}.${row.table}`;
}

function columnDefault(row: ColumnRow): string | null {
  if (row.identity === 'a') return 'GENERATED ALWAYS AS IDENTITY';
  if (row.identity === 'd') return 'GENERATED BY DEFAULT AS IDENTITY';
  if (row.generated === 's' && row.default_expr !== null) return `GENERATED ALWAYS AS (${row.default_expr}) STORED`;
  if (row.generated === 'v' && row.default_expr !== null) return `GENERATED ALWAYS AS (${row.default_expr}) VIRTUAL`;
  return row.default_expr;
}
