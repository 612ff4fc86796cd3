import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BranchError } from '../provider';
import { naturalCompare, planMigrations } from './index';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-plan-'));
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('planMigrations', () => {
  it('plans nothing when the project has no migrations', async () => {
    expect(await planMigrations(root, { migrations: null })).toEqual({ tool: 'none' });
  });

  it('lists a SQL folder in natural order with each file hashed, leaving out down-migrations and other files', async () => {
    await mkdir(join(root, 'migrations'));
    for (const name of ['10_c.sql', '2_b.sql', '1_a.sql', '2_b.down.sql', 'README.md', '003_d.SQL'])
      await writeFile(join(root, 'migrations', name), `-- ${name}\n`);
    await mkdir(join(root, 'migrations', '0_folder.sql'));
    const plan = await planMigrations(root, { migrations: { tool: 'sql', path: 'migrations' } });
    if (plan.tool !== 'sql') throw new Error(`expected a sql plan, got ${plan.tool}`);
    expect(plan.dir).toBe(join(root, 'migrations'));
    expect(plan.files.map((f) => f.version)).toEqual(['1_a.sql', '2_b.sql', '003_d.SQL', '10_c.sql']);
    expect(plan.files[0]).toEqual({
      version: '1_a.sql',
      path: 'migrations/1_a.sql',
      sql: '-- 1_a.sql\n',
      sha256: createHash('sha256').update('-- 1_a.sql\n').digest('hex'),
    });
  });

  it('explains a missing SQL folder', async () => {
    const error = await planMigrations(root, { migrations: { tool: 'sql', path: 'db/migrations' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BranchError);
    expect((error as BranchError).code).toBe('invalid');
    expect((error as Error).message).toMatch(
      /The migrations folder "db\/migrations" was not found in .*\. Create it, or change "migrations" in \.baton\/project\.json/,
    );
  });

  it('runs node-pg-migrate up on the configured folder without letting npx install anything', async () => {
    expect(await planMigrations(root, { migrations: { tool: 'node-pg-migrate', path: 'db/migrations' } })).toEqual({
      tool: 'node-pg-migrate',
      command: 'npx --no node-pg-migrate up -m db/migrations',
    });
    const spaced = await planMigrations(root, { migrations: { tool: 'node-pg-migrate', path: 'my migrations' } });
    expect(spaced).toEqual({
      tool: 'node-pg-migrate',
      command: process.platform === 'win32' ? 'npx --no node-pg-migrate up -m "my migrations"' : "npx --no node-pg-migrate up -m 'my migrations'",
    });
  });

  it('runs knex migrate:latest, which reads its folder from the knexfile', async () => {
    expect(await planMigrations(root, { migrations: { tool: 'knex', path: 'migrations' } })).toEqual({ tool: 'knex', command: 'npx --no knex migrate:latest' });
  });

  it('runs a configured command as written, and refuses the command tool without one', async () => {
    expect(await planMigrations(root, { migrations: { tool: 'command', path: 'alembic', command: 'alembic upgrade head' } })).toEqual({
      tool: 'command',
      command: 'alembic upgrade head',
    });
    await expect(planMigrations(root, { migrations: { tool: 'command', path: 'alembic' } })).rejects.toThrow(/no command is set: add "command"/);
  });
});

describe('naturalCompare', () => {
  it('orders digit runs as numbers and is a total order', () => {
    const names = ['10_c.sql', '2_b.sql', '1_a.sql', '01_a.sql', '1_b.sql', '20240101_x.sql', '9_z.sql', 'a.sql'];
    expect([...names].sort(naturalCompare)).toEqual(['01_a.sql', '1_a.sql', '1_b.sql', '2_b.sql', '9_z.sql', '10_c.sql', '20240101_x.sql', 'a.sql']);
    expect([...names].reverse().sort(naturalCompare)).toEqual([...names].sort(naturalCompare));
  });
});
