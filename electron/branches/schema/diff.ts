/**
 * The difference between two schema snapshots, as the Branch tree's diff view lists it. Pure:
 * no I/O, so the same snapshots always give the same changes in the same order.
 */
import { SCHEMA_CHANGE_KINDS, type SchemaChange, type SchemaChangeKind, type SchemaDiff } from '../../../shared/branches';
import { compareText, type ColumnSnapshot, type NamedDefinition, type SchemaSnapshot, type TableSnapshot } from './snapshot';

/** `before` is always the parent's side, `after` the branch's. */
export function diffSchemas(parent: SchemaSnapshot, branch: SchemaSnapshot, names: { branch: string; parent: string }): SchemaDiff {
  const changes: SchemaChange[] = [];
  const before = new Map(parent.tables.map((t) => [t.name, t]));
  const after = new Map(branch.tables.map((t) => [t.name, t]));

  for (const [name, table] of before) {
    if (!after.has(name)) changes.push({ kind: 'table-removed', table: name, before: renderTable(table), after: null });
  }
  for (const [name, table] of after) {
    const old = before.get(name);
    if (!old) changes.push({ kind: 'table-added', table: name, before: null, after: renderTable(table) });
    else changes.push(...diffTable(old, table));
  }
  return { branch: names.branch, parent: names.parent, changes: changes.sort(byPosition) };
}

function diffTable(before: TableSnapshot, after: TableSnapshot): SchemaChange[] {
  const table = after.name;
  const changes: SchemaChange[] = [];
  const oldColumns = new Map(before.columns.map((c) => [c.name, c]));
  const newColumns = new Map(after.columns.map((c) => [c.name, c]));
  for (const [name, column] of oldColumns) {
    if (!newColumns.has(name)) changes.push({ kind: 'column-removed', table, name, before: renderColumn(column), after: null });
  }
  for (const [name, column] of newColumns) {
    const old = oldColumns.get(name);
    if (!old) {
      changes.push({ kind: 'column-added', table, name, before: null, after: renderColumn(column) });
      continue;
    }
    if (old.type !== column.type) changes.push({ kind: 'column-type-changed', table, name, before: old.type, after: column.type });
    if (old.nullable !== column.nullable)
      changes.push({ kind: 'column-nullability-changed', table, name, before: nullability(old), after: nullability(column) });
    if (old.default !== column.default) changes.push({ kind: 'column-default-changed', table, name, before: old.default, after: column.default });
  }

  const oldKey = before.primaryKey;
  const newKey = after.primaryKey;
  // Compared by definition: a renamed key that still covers the same columns is not a change worth showing.
  if (oldKey?.definition !== newKey?.definition) {
    changes.push({
      kind: 'primary-key-changed',
      table,
      name: newKey?.name ?? oldKey?.name,
      before: oldKey?.definition ?? null,
      after: newKey?.definition ?? null,
    });
  }

  changes.push(...diffNamed(table, before.constraints, after.constraints, 'constraint'));
  changes.push(...diffNamed(table, before.indexes, after.indexes, 'index'));
  return changes;
}

function diffNamed(table: string, before: readonly NamedDefinition[], after: readonly NamedDefinition[], noun: 'constraint' | 'index'): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const old = new Map(before.map((d) => [d.name, d.definition]));
  const now = new Map(after.map((d) => [d.name, d.definition]));
  for (const [name, definition] of old) {
    if (!now.has(name)) changes.push({ kind: `${noun}-removed`, table, name, before: definition, after: null });
  }
  for (const [name, definition] of now) {
    const was = old.get(name);
    if (was === undefined) changes.push({ kind: `${noun}-added`, table, name, before: null, after: definition });
    else if (was !== definition) changes.push({ kind: `${noun}-changed`, table, name, before: was, after: definition });
  }
  return changes;
}

const KIND_ORDER = new Map<SchemaChangeKind, number>(SCHEMA_CHANGE_KINDS.map((kind, i) => [kind, i]));

/** By table, then table-level, column, key, constraint and index changes, then name. */
function byPosition(a: SchemaChange, b: SchemaChange): number {
  return compareText(a.table, b.table) || (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0) || compareText(a.name ?? '', b.name ?? '');
}

function nullability(column: ColumnSnapshot): string {
  return column.nullable ? 'NULL' : 'NOT NULL';
}

/** `email text NOT NULL DEFAULT ''::text`: what the diff shows for an added or removed column. */
export function renderColumn(column: ColumnSnapshot): string {
  const parts = [column.name, column.type];
  if (!column.nullable) parts.push('NOT NULL');
  if (column.default !== null) parts.push(column.default.startsWith('GENERATED ') ? column.default : `DEFAULT ${column.default}`);
  return parts.join(' ');
}

/** A CREATE TABLE-like summary of a whole table, for an added or removed one. */
export function renderTable(table: TableSnapshot): string {
  const lines = [
    ...table.columns.map(renderColumn),
    ...(table.primaryKey ? [`CONSTRAINT ${table.primaryKey.name} ${table.primaryKey.definition}`] : []),
    ...table.constraints.map((c) => `CONSTRAINT ${c.name} ${c.definition}`),
  ];
  const body = lines.length > 0 ? `(\n  ${lines.join(',\n  ')}\n)` : '()';
  return [`CREATE TABLE ${table.name} ${body}`, ...table.indexes.map((i) => i.definition)].join(';\n');
}
