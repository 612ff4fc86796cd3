import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePglite, type ServedPglite } from '../branches/migrations/test-databases.fixture';
import { bridgeDatabase } from '../process/db-bridge';
import { detectBubblewrap } from '../process/sandbox';
import { packageRoot } from '../platform/package-root';
import { executeRun, prepareRun, type ControlledRunResult } from './controlled-run';

/**
 * The orchestrator's test runs have no network (testNetwork "cut", the default): inside the
 * sandbox a test reaches its database through Baton's socket bridge, and nothing else — not even
 * a server on the host's loopback. A real PGlite served on loopback is the database.
 */
const support = await detectBubblewrap();
if (!support.ok) console.warn(`run-network.test.ts: sandboxed runs skipped: no working bubblewrap on this machine (${support.reason}).`);
else if (!support.unshareNet) console.warn('run-network.test.ts: the cut skipped: this bubblewrap cannot unshare the network.');
const noCut = !support.ok || !support.unshareNet;

let base: string;
let worktree: string;
let database: ServedPglite;
let host: Server;
let hostPort: number;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-net-'));
  worktree = join(base, 'work');
  await mkdir(join(worktree, 'test'), { recursive: true });
  database = await servePglite();
  host = createServer((socket) => socket.end('pong from the host\n'));
  await new Promise<void>((done) => host.listen(0, '127.0.0.1', done));
  hostPort = (host.address() as { port: number }).port;
  await writeFile(
    join(worktree, 'test/net.test.mjs'),
    [
      "import test from 'node:test';",
      "import assert from 'node:assert';",
      "import { connect } from 'node:net';",
      "import pg from 'pg';",
      "test('reaches its database', async () => {",
      '  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });',
      '  await client.connect();',
      "  const { rows } = await client.query('SELECT 40 + 2 AS answer');",
      '  await client.end();',
      '  assert.equal(rows[0].answer, 42);',
      '});',
      "test('reaches the host', () => new Promise((resolve, reject) => {",
      `  connect(${hostPort}, '127.0.0.1').on('data', () => resolve()).on('error', (e) => reject(e));`,
      '}));',
      '',
    ].join('\n'),
  );
  execFileSync('git', ['init', '-q'], { cwd: worktree });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: worktree });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'start'], { cwd: worktree });
});
afterAll(async () => {
  host?.close();
  await database?.close();
  await rm(base, { recursive: true, force: true });
});

async function run(network: 'cut' | 'shared' | undefined): Promise<ControlledRunResult> {
  const site = { dir: join(base, 'run', 'tree'), scratch: join(base, 'run', 'scratch') };
  const dependencies = join(packageRoot(import.meta.url), 'node_modules');
  const prepared = await prepareRun({ worktree, site, command: 'node --test', testGlobs: ['test/**'], locked: [], order: 'as-given', dependencies });
  return executeRun(prepared, {
    command: 'node --test',
    format: 'junit',
    reportPath: null,
    env: { DATABASE_URL: database.url, PGSSLMODE: 'disable' },
    pass: [],
    hide: [],
    timeoutMs: 60_000,
    sandbox: 'required',
    network,
  });
}

const statuses = (r: ControlledRunResult) => r.report.cases.map((c) => [c.name, c.status]);

describe('the network of a test run', () => {
  it.skipIf(noCut)('is cut by default: the database answers through the bridge, a server on the host does not', async () => {
    const result = await run(undefined);
    expect(result.sandbox).toMatch(
      /^\[sandbox\] bubblewrap: only the worktree is writable; nothing of the machine but its runtime is readable \(shown read-only: .*\); no network$/,
    );
    expect(result.integrity).toEqual([]);
    expect(statuses(result)).toEqual([
      ['reaches its database', 'passed'],
      ['reaches the host', 'failed'],
    ]);
    expect(result.stdout + result.stderr).toMatch(/ECONNREFUSED|ENETUNREACH/);
  });

  it.skipIf(!support.ok)('is the host’s with "testNetwork": "shared"', async () => {
    const result = await run('shared');
    expect(result.sandbox).toMatch(
      /^\[sandbox\] bubblewrap: only the worktree is writable; nothing of the machine but its runtime is readable \(shown read-only: [^)]*\)$/,
    );
    expect(statuses(result)).toEqual([
      ['reaches its database', 'passed'],
      ['reaches the host', 'passed'],
    ]);
  });
});

describe('the database bridge', () => {
  it('keeps the user, password, database and port, and names its socket folder as the host', async () => {
    const bridge = await bridgeDatabase('postgresql://app:s3cret@127.0.0.1:6543/shop?application_name=t');
    try {
      const url = new URL(bridge!.url);
      expect([url.username, url.password, url.pathname, url.port]).toEqual(['app', 's3cret', '/shop', '6543']);
      expect(url.searchParams.get('host')).toBe(bridge!.dir);
      expect(url.searchParams.get('application_name')).toBe('t');
    } finally {
      await bridge?.close();
    }
  });

  it('bridges only a database on this machine: a remote one keeps its URL (and the run its network)', async () => {
    expect(await bridgeDatabase('postgresql://app:pw@db.example.com:5432/shop')).toBeNull();
    expect(await bridgeDatabase('not a url')).toBeNull();
  });
});
