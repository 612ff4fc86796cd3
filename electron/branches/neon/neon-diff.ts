/**
 * Reads Neon's `compare_schema` answer — a unified diff of two `pg_dump --schema-only` scripts
 * (base branch `---`, compared branch `+++`) — into Baton's schema changes, as far as the diff
 * allows. What it recognises, in pg_dump's own layout:
 *
 *   CREATE TABLE public.t (            table-added / table-removed
 *       col type [DEFAULT x] [NOT NULL],   column-added / -removed / -type- / -nullability- / -default-changed
 *       CONSTRAINT c CHECK (...)           constraint-added / -removed / -changed
 *   );
 *   ALTER TABLE ONLY public.t
 *       ADD CONSTRAINT c PRIMARY KEY (id);   primary-key-changed, constraint-*
 *   ALTER TABLE ONLY public.t ALTER COLUMN c SET DEFAULT v;   column-default-changed
 *   CREATE [UNIQUE] INDEX i ON public.t USING btree (c);      index-added / -removed / -changed
 *
 * A change whose table the hunk does not show (the CREATE TABLE line fell outside the diff's
 * context) is left out of `changes`; the full text stays in `SchemaDiff.text`. Changes inside a
 * table that was added or removed as a whole are folded into that table's change.
 */
import { SCHEMA_CHANGE_KINDS, type SchemaChange, type SchemaChangeKind } from '../../../shared/branches';

type Side = 'old' | 'new';
interface Block {
  table: string;
  whole: boolean;
  /** The lines of a table added or removed as a whole, for its change's text. */
  lines: string[];
}
interface Column {
  type: string;
  notNull: boolean;
  default: string | null;
  text: string;
}

export function parseNeonSchemaDiff(diff: string): SchemaChange[] {
  const tables = { old: new Map<string, string[]>(), new: new Map<string, string[]>() };
  const columns = { old: new Map<string, Column>(), new: new Map<string, Column>() };
  const constraints = { old: new Map<string, string>(), new: new Map<string, string>() };
  const defaults = { old: new Map<string, string>(), new: new Map<string, string>() };
  const indexes = { old: new Map<string, string>(), new: new Map<string, string>() };
  const block: Record<Side, Block | null> = { old: null, new: null };
  const alter: Record<Side, string | null> = { old: null, new: null };

  for (const line of diff.split('\n')) {
    if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('\\')) continue;
    if (line.startsWith('@@')) {
      // A new hunk: what came before it is unknown.
      block.old = block.new = null;
      alter.old = alter.new = null;
      continue;
    }
    const mark = line[0];
    const sides: Side[] = mark === '-' ? ['old'] : mark === '+' ? ['new'] : mark === ' ' ? ['old', 'new'] : [];
    if (sides.length === 0) continue;
    const changed = mark !== ' ';
    const text = line.slice(1).replace(/\s+$/, '');

    const create = /^CREATE TABLE (\S+) \($/.exec(text);
    if (create) {
      const table = qualify(create[1]!);
      const lines: string[] = [];
      for (const side of sides) block[side] = { table, whole: changed, lines };
      if (changed) tables[sides[0]!].set(table, lines);
      continue;
    }
    if (/^\);?$/.test(text) || /^\)( [A-Z].*)?;$/.test(text)) {
      for (const side of sides) block[side] = null;
      continue;
    }
    const alterHead = /^ALTER TABLE (?:ONLY )?(\S+)$/.exec(text);
    if (alterHead) {
      for (const side of sides) alter[side] = qualify(alterHead[1]!);
      continue;
    }
    const pendingAlter = alter[sides[0]!];
    for (const side of sides) alter[side] = null;
    if (!changed) continue;
    const side = sides[0]!;

    const addConstraint = /^\s+ADD CONSTRAINT (\S+) (.+?);?$/.exec(text);
    if (addConstraint && pendingAlter) {
      constraints[side].set(key(pendingAlter, addConstraint[1]!), addConstraint[2]!);
      continue;
    }
    const setDefault = /^ALTER TABLE (?:ONLY )?(\S+) ALTER COLUMN (\S+) SET DEFAULT (.+);$/.exec(text);
    if (setDefault) {
      defaults[side].set(key(qualify(setDefault[1]!), unquote(setDefault[2]!)), setDefault[3]!);
      continue;
    }
    const index = /^CREATE (?:UNIQUE )?INDEX (\S+) ON (?:ONLY )?(\S+) (.+);$/.exec(text);
    if (index) {
      indexes[side].set(key(qualify(index[2]!), unquote(index[1]!)), text);
      continue;
    }
    const inside = block[side];
    if (!inside) continue;
    if (inside.whole) {
      inside.lines.push(text.trim().replace(/,$/, ''));
      continue;
    }
    const inline = /^\s+CONSTRAINT (\S+) (.+?),?$/.exec(text);
    if (inline) {
      constraints[side].set(key(inside.table, inline[1]!), inline[2]!);
      continue;
    }
    const column = /^\s+("[^"]+"|\S+) (.+?),?$/.exec(text);
    if (column) columns[side].set(key(inside.table, unquote(column[1]!)), parseColumn(unquote(column[1]!), column[2]!));
  }

  const wholeTables = new Set([...tables.old.keys(), ...tables.new.keys()]);
  const changes: SchemaChange[] = [];
  const add = (kind: SchemaChangeKind, id: string, before: string | null, after: string | null, named = true): void => {
    const [table, name] = splitKey(id);
    if (named && wholeTables.has(table)) return;
    changes.push(named ? { kind, table, name, before, after } : { kind, table, before, after });
  };

  for (const [table, lines] of tables.new) if (!tables.old.has(table)) add('table-added', key(table, ''), null, renderTable(table, lines), false);
  for (const [table, lines] of tables.old) if (!tables.new.has(table)) add('table-removed', key(table, ''), renderTable(table, lines), null, false);

  for (const id of union(columns.old, columns.new)) {
    const before = columns.old.get(id);
    const after = columns.new.get(id);
    if (!before) add('column-added', id, null, after!.text);
    else if (!after) add('column-removed', id, before.text, null);
    else {
      if (before.type !== after.type) add('column-type-changed', id, before.type, after.type);
      if (before.notNull !== after.notNull) add('column-nullability-changed', id, nullability(before), nullability(after));
      if (before.default !== after.default) add('column-default-changed', id, before.default, after.default);
    }
  }
  for (const id of union(defaults.old, defaults.new)) {
    const before = defaults.old.get(id) ?? null;
    const after = defaults.new.get(id) ?? null;
    if (before !== after) add('column-default-changed', id, before, after);
  }
  for (const id of union(constraints.old, constraints.new)) {
    const before = constraints.old.get(id) ?? null;
    const after = constraints.new.get(id) ?? null;
    if (before === after) continue;
    const primary = /^PRIMARY KEY/.test(before ?? after ?? '');
    const kind: SchemaChangeKind = primary
      ? 'primary-key-changed'
      : before === null
        ? 'constraint-added'
        : after === null
          ? 'constraint-removed'
          : 'constraint-changed';
    add(kind, id, before, after);
  }
  for (const id of union(indexes.old, indexes.new)) {
    const before = indexes.old.get(id) ?? null;
    const after = indexes.new.get(id) ?? null;
    if (before === after) continue;
    add(before === null ? 'index-added' : after === null ? 'index-removed' : 'index-changed', id, before, after);
  }
  return changes.sort(byPosition);
}

const KIND_ORDER = new Map<SchemaChangeKind, number>(SCHEMA_CHANGE_KINDS.map((kind, i) => [kind, i]));

/** The order schema/diff.ts uses: by table, then table, column, key, constraint and index changes, then name. */
function byPosition(a: SchemaChange, b: SchemaChange): number {
  return a.table.localeCompare(b.table) || (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0) || (a.name ?? '').localeCompare(b.name ?? '');
}

/** `CREATE TABLE public.t (\n  id integer NOT NULL\n)`, like schema/diff.ts renders a whole table. */
function renderTable(table: string, lines: readonly string[]): string {
  return lines.length ? `CREATE TABLE ${table} (\n  ${lines.join(',\n  ')}\n)` : `CREATE TABLE ${table} ()`;
}

function parseColumn(name: string, definition: string): Column {
  const text = definition.replace(/,$/, '').trim();
  const notNull = /\bNOT NULL\b/.test(text);
  const withoutNull = text.replace(/\s*\bNOT NULL\b/, '').replace(/\s*\bNULL\b$/, '');
  const defaultMatch = /\sDEFAULT (.+)$/.exec(withoutNull);
  const type = (defaultMatch ? withoutNull.slice(0, defaultMatch.index) : withoutNull).trim();
  return { type, notNull, default: defaultMatch ? defaultMatch[1]!.trim() : null, text: `${name} ${text}` };
}

function nullability(column: Column): string {
  return column.notNull ? 'NOT NULL' : 'NULL';
}

function qualify(name: string): string {
  const bare = unquote(name);
  return bare.includes('.') ? bare : `public.${bare}`;
}

function unquote(name: string): string {
  return name.replace(/"/g, '');
}

const SEP = '\u0000';
function key(table: string, name: string): string {
  return `${table}${SEP}${name}`;
}
function splitKey(id: string): [string, string] {
  const at = id.indexOf(SEP);
  return [id.slice(0, at), id.slice(at + 1)];
}

function union<T>(a: Map<string, T>, b: Map<string, T>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])];
}
