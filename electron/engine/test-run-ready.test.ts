/**
 * The throwaway databases test runs and turns get (test-run.ts) on the embedded provider with its
 * ready pool on: each is fresh (a previous holder's writes are absent) and carries the migrations of
 * the files as they are now — a changed migration file is applied, never served from a branch
 * prepared for the old one.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectSettings } from '../project/settings';
import { makeTempProvider, type TempProvider } from '../branches/pglite/pglite.fixture';
import { turnDatabase } from './test-run';

let t: TempProvider;
let project: string;
const settings = { migrations: { tool: 'sql', path: 'migrations' } } as unknown as ProjectSettings;

beforeAll(async () => {
  t = await makeTempProvider({ poolSize: 2 });
  project = await mkdtemp(join(os.tmpdir(), 'baton-ready-project-'));
  await mkdir(join(project, 'migrations'));
  await writeFile(join(project, 'migrations', '001_items.sql'), 'create table items (sku text primary key);\n');
  await t.provider.ensureRoot('main');
  await t.provider.create('story', 'main');
}, 120_000);
afterAll(async () => {
  await t?.dispose();
  await rm(project, { recursive: true, force: true });
}, 60_000);

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const columns = (url: string) =>
  query<{ c: string }>(url, "select column_name as c from information_schema.columns where table_name = 'items' order by ordinal_position").then((rows) =>
    rows.map((r) => r.c),
  );

describe('throwaway databases from the ready pool', () => {
  it('are fresh each time: what the previous run wrote is absent', async () => {
    for (let round = 0; round < 3; round++) {
      await t.provider.poolIdle();
      const db = await turnDatabase(t.provider, 'story', project, settings);
      expect(db.note).toBeNull();
      expect(await query(db.env.DATABASE_URL!, 'select sku from items')).toEqual([]);
      await query(db.env.DATABASE_URL!, `insert into items values ('written in round ${round}')`);
      await db.drop();
    }
  }, 180_000);

  it('apply a changed migration file instead of serving a branch prepared for the old one', async () => {
    await t.provider.poolIdle(); // entries prepared with the old file are ready now
    await writeFile(join(project, 'migrations', '001_items.sql'), 'create table items (sku text primary key, qty int not null default 0);\n');
    const changed = await turnDatabase(t.provider, 'story', project, settings);
    expect(await columns(changed.env.DATABASE_URL!)).toEqual(['sku', 'qty']);
    await changed.drop();

    // And a broken one fails as it would on a branch made on the spot.
    await t.provider.poolIdle();
    await writeFile(join(project, 'migrations', '002_broken.sql'), 'alter table nowhere add column x int;\n');
    const broken = await turnDatabase(t.provider, 'story', project, settings);
    expect(broken.note).toMatch(/002_broken\.sql failed/);
    await broken.drop();
  }, 180_000);

  it('leave no throwaway behind once the provider closes, whatever was made ahead', async () => {
    await t.provider.close();
    expect((await t.provider.list()).map((b) => b.name).filter((name) => name.startsWith('tmp-'))).toEqual([]);
  }, 120_000);
});
