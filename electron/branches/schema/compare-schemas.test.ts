import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_CHANGE_KINDS, type SchemaDiff } from '../../../shared/branches';
import { realPostgres, scratchDatabase } from '../migrations/test-databases.fixture';
import { compareSchemas, type Queryable } from './index';
import { BASE_SQL, BRANCH_EDITS_SQL, EXPECTED_CHANGES } from './schema-scenario';

const names = { branch: 'feature-x', parent: 'main' };

interface Results {
  unchanged: SchemaDiff;
  changed: SchemaDiff;
  reversed: SchemaDiff;
}

/** Diffs taken before and after the edits, so each test only reads. */
async function diffScenario(parent: Queryable, branch: Queryable, edit: () => Promise<unknown>): Promise<Results> {
  const unchanged = await compareSchemas(branch, parent, names);
  await edit();
  const changed = await compareSchemas(branch, parent, names);
  const reversed = await compareSchemas(parent, branch, { branch: 'main', parent: 'feature-x' });
  return { unchanged, changed, reversed };
}

function assertScenario(get: () => Results): void {
  it('reports no change when the branch is identical to its parent', () => {
    expect(get().unchanged).toEqual({ branch: 'feature-x', parent: 'main', changes: [] });
  });

  it('detects every kind of change with the parent before and the branch after, in a fixed order', () => {
    expect(get().changed.changes).toEqual(EXPECTED_CHANGES);
    expect(new Set(get().changed.changes.map((c) => c.kind))).toEqual(new Set(SCHEMA_CHANGE_KINDS));
  });

  it('mirrors the changes when the sides are swapped', () => {
    const kinds = get().reversed.changes.map((c) => `${c.kind} ${c.table} ${c.name ?? ''}`.trim());
    expect(kinds).toContain('table-added public.legacy');
    expect(kinds).toContain('table-removed public.audit');
    expect(kinds).toContain('column-added public.users name');
    expect(get().reversed.changes.find((c) => c.kind === 'column-type-changed')).toMatchObject({ before: 'bigint', after: 'integer' });
  });
}

describe('compareSchemas on PGlite', () => {
  let parent: PGlite;
  let branch: PGlite;
  let results: Results;

  beforeAll(async () => {
    parent = await PGlite.create();
    await parent.exec(BASE_SQL);
    // A clone is exactly what a pglite branch is: a copy of its parent's data directory.
    branch = (await parent.clone()) as PGlite;
    results = await diffScenario(parent, branch, () => branch.exec(BRANCH_EDITS_SQL));
  }, 120_000);

  afterAll(async () => {
    await branch?.close();
    await parent?.close();
  }, 60_000);

  assertScenario(() => results);
});

const server = await realPostgres();
if (!server.url) console.warn(`Skipping compareSchemas on Postgres: ${server.reason}.`);

describe.skipIf(!server.url)('compareSchemas on a Postgres server', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  let results: Results;

  beforeAll(async () => {
    const parentDb = await scratchDatabase(server.url!, 'baton_diff');
    cleanup.push(parentDb.drop);
    const branchDb = await scratchDatabase(server.url!, 'baton_diff');
    cleanup.push(branchDb.drop);
    const parent = new pg.Client({ connectionString: parentDb.url });
    const branch = new pg.Client({ connectionString: branchDb.url });
    await parent.connect();
    cleanup.unshift(() => parent.end());
    await branch.connect();
    cleanup.unshift(() => branch.end());
    await parent.query(BASE_SQL);
    await branch.query(BASE_SQL);
    results = await diffScenario(parent, branch, () => branch.query(BRANCH_EDITS_SQL));
  }, 120_000);

  afterAll(async () => {
    for (const step of cleanup) await step();
  }, 60_000);

  assertScenario(() => results);
});
