import { describe, expect, it } from 'vitest';
import { diffSchemas, renderColumn } from './diff';
import type { SchemaSnapshot, TableSnapshot } from './snapshot';

const names = { branch: 'b', parent: 'p' };

function table(name: string, extra: Partial<TableSnapshot> = {}): TableSnapshot {
  return { name, columns: [{ name: 'id', type: 'integer', nullable: false, default: null }], primaryKey: null, constraints: [], indexes: [], ...extra };
}

describe('diffSchemas', () => {
  it('orders changes by table, kind and name whatever order the snapshots come in', () => {
    const parent: SchemaSnapshot = { tables: [table('public.a'), table('public.b')] };
    const branchTables = [
      table('public.b', {
        indexes: [
          { name: 'z_idx', definition: 'CREATE INDEX z_idx ON public.b (id)' },
          { name: 'a_idx', definition: 'CREATE INDEX a_idx ON public.b (id)' },
        ],
      }),
      table('public.c'),
      table('public.a', { columns: [] }),
    ];
    const forward = diffSchemas(parent, { tables: branchTables }, names).changes.map((c) => `${c.table} ${c.kind} ${c.name ?? ''}`);
    const backward = diffSchemas(parent, { tables: [...branchTables].reverse() }, names).changes.map((c) => `${c.table} ${c.kind} ${c.name ?? ''}`);
    expect(forward).toEqual(['public.a column-removed id', 'public.b index-added a_idx', 'public.b index-added z_idx', 'public.c table-added ']);
    expect(backward).toEqual(forward);
  });

  it('does not report a primary key whose name changed but whose columns did not', () => {
    const parent = { tables: [table('public.a', { primaryKey: { name: 'a_pkey', definition: 'PRIMARY KEY (id)' } })] };
    const branch = { tables: [table('public.a', { primaryKey: { name: 'a_pk', definition: 'PRIMARY KEY (id)' } })] };
    expect(diffSchemas(parent, branch, names).changes).toEqual([]);
  });

  it('reports a dropped primary key with the parent definition before and nothing after', () => {
    const parent = { tables: [table('public.a', { primaryKey: { name: 'a_pkey', definition: 'PRIMARY KEY (id)' } })] };
    expect(diffSchemas(parent, { tables: [table('public.a')] }, names).changes).toEqual([
      { kind: 'primary-key-changed', table: 'public.a', name: 'a_pkey', before: 'PRIMARY KEY (id)', after: null },
    ]);
  });

  it('renders identity and generated columns without a DEFAULT keyword', () => {
    expect(renderColumn({ name: 'id', type: 'bigint', nullable: false, default: 'GENERATED ALWAYS AS IDENTITY' })).toBe(
      'id bigint NOT NULL GENERATED ALWAYS AS IDENTITY',
    );
    expect(renderColumn({ name: 'n', type: 'integer', nullable: true, default: '0' })).toBe('n integer DEFAULT 0');
  });
});
