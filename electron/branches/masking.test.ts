import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMasking } from './masking';
import { servePglite, TEST_PASSWORD, withClient, type ServedPglite } from './migrations/test-databases.fixture';
import { BranchError } from './provider';

const NODE_PATH = dirname(dirname(createRequire(import.meta.url).resolve('pg/package.json')));
const SCRUB = "UPDATE users SET email = 'user' || id || '@example.invalid';\n";

let served: ServedPglite;
let root: string;

beforeAll(async () => {
  served = await servePglite();
}, 120_000);
afterAll(async () => served?.close(), 60_000);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-mask-'));
  await mkdir(join(root, 'masking'));
  await withClient(served.url, (c) =>
    c.query(`DROP TABLE IF EXISTS users; CREATE TABLE users (id int PRIMARY KEY, email text);
      INSERT INTO users VALUES (1, 'ada@real.example'), (2, 'alan@real.example');`),
  );
});
afterEach(async () => rm(root, { recursive: true, force: true }));

async function emails(): Promise<string[]> {
  const result = await withClient(served.url, (c) => c.query<{ email: string }>('SELECT email FROM users ORDER BY id'));
  return result.rows.map((r) => r.email);
}

describe('applyMasking', () => {
  it('runs a SQL file named by a path and scrubs the emails', async () => {
    await writeFile(join(root, 'masking', 'scrub.sql'), SCRUB);
    expect(await applyMasking(served.url, 'masking/scrub.sql', root)).toBe(true);
    expect(await emails()).toEqual(['user1@example.invalid', 'user2@example.invalid']);
  });

  it('takes { sql } as a file name, or as the SQL itself when it is not one', async () => {
    await writeFile(join(root, 'masking', 'scrub.sql'), SCRUB);
    expect(await applyMasking(served.url, { sql: 'masking/scrub.sql' }, root)).toBe(true);
    expect(await emails()).toEqual(['user1@example.invalid', 'user2@example.invalid']);
    expect(await applyMasking(served.url, { sql: "UPDATE users SET email = 'x@example.invalid'" }, root)).toBe(true);
    expect(await emails()).toEqual(['x@example.invalid', 'x@example.invalid']);
  });

  it('does nothing and says so when masking is null', async () => {
    expect(await applyMasking(served.url, null, root)).toBe(false);
    expect(await emails()).toEqual(['ada@real.example', 'alan@real.example']);
  });

  it('rolls the whole file back when a statement fails, and names the file and line', async () => {
    await writeFile(join(root, 'masking', 'scrub.sql'), `${SCRUB}UPDATE no_such_table SET email = NULL;\n`);
    const error = await applyMasking(served.url, 'masking/scrub.sql', root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BranchError);
    expect((error as Error).message).toMatch(/^Masking with masking\/scrub\.sql failed at line 2 .*relation "no_such_table" does not exist.*rolled back/);
    expect((error as Error).message).not.toContain(TEST_PASSWORD);
    expect(await emails()).toEqual(['ada@real.example', 'alan@real.example']);
  });

  it('runs a masking command with DATABASE_URL in the project folder', async () => {
    await writeFile(
      join(root, 'mask.cjs'),
      `const { Client } = require('pg');
const c = new Client({ connectionString: process.env.DATABASE_URL });
c.connect().then(() => c.query("UPDATE users SET email = 'cmd' || id || '@example.invalid'")).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });`,
    );
    expect(await applyMasking(served.url, { command: 'node mask.cjs' }, root, { env: { ...process.env, NODE_PATH } })).toBe(true);
    expect(await emails()).toEqual(['cmd1@example.invalid', 'cmd2@example.invalid']);
  });

  it('fails a masking command that exits non-zero, showing its output without the password', async () => {
    const command = `node -e "console.error('cannot mask ' + process.env.DATABASE_URL); process.exit(4)"`;
    const error = await applyMasking(served.url, { command }, root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BranchError);
    expect((error as Error).message).toMatch(/exited with code 4 .*\ncannot mask postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1/);
    expect((error as Error).message).not.toContain(TEST_PASSWORD);
  });

  it('explains a missing masking file: which, where, and what to do', async () => {
    const error = await applyMasking(served.url, 'masking/absent.sql', root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BranchError);
    expect((error as BranchError).code).toBe('invalid');
    expect((error as Error).message).toBe(
      `The masking file "masking/absent.sql" was not found in ${root}. Create it, or change "masking" in .baton/project.json (null for none).`,
    );
  });
});
