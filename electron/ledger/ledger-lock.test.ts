/**
 * The lock between processes: a real second Node process (TypeScript through tsx) holds a real
 * transaction, and this process must wait, then fail clearly; a lock whose process is gone is taken over.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from './ledger';
import { makeTempLedger, ORCHESTRATOR, removeTemp, type TempLedger } from './temp-ledger.fixture';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');

// The child holds a transaction open until it reads a line on stdin.
const HOLDER = `
const { Ledger } = await import(${JSON.stringify(pathToFileURL(path.join(HERE, 'ledger.ts')).href)});
const ledger = new Ledger(process.env.LEDGER_DIR);
await ledger.transaction(async (tx) => {
  await tx.append({ type: 'child.held', actor: { kind: 'orchestrator', id: 'child' } });
  console.log('locked');
  await new Promise((resolve) => process.stdin.once('data', resolve));
});
console.log('released');
`;

const waitForLine = (child: ChildProcessWithoutNullStreams, line: string): Promise<void> =>
  new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(line)) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before "${line}": ${err}`)));
  });

const deadPid = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.once('error', reject);
    child.once('exit', () => resolve(child.pid!));
  });

let t: TempLedger;
let child: ChildProcessWithoutNullStreams | null = null;
beforeEach(async () => {
  t = await makeTempLedger({ lockTimeoutMs: 400 });
});
afterEach(async () => {
  child?.kill();
  child = null;
  await removeTemp(t.root);
});

describe('the lock between processes', () => {
  it('makes a second writer wait, then fail naming the lock file and the holder, until it is released', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER], {
      cwd: REPO,
      env: { ...process.env, LEDGER_DIR: t.dir },
    });
    const released = waitForLine(child, 'released');
    await waitForLine(child, 'locked');
    const lockFile = path.join(t.dir, '.lock');
    expect(JSON.parse(await fs.readFile(lockFile, 'utf8'))).toMatchObject({ pid: child.pid, host: os.hostname() });

    const started = Date.now();
    const error = await t.ledger.append({ type: 'parent', actor: ORCHESTRATOR }).catch((e: unknown) => e as Error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`pid ${child.pid} on ${os.hostname()}`);
    expect((error as Error).message).toContain(lockFile);
    expect((error as Error).message).toMatch(/Waited 0\.\d s/);

    child.stdin.write('go\n');
    await released;
    const record = await t.ledger.append({ type: 'parent', actor: ORCHESTRATOR });
    expect(record.seq).toBe(2);
    expect((await t.ledger.read()).records.map((r) => r.type)).toEqual(['child.held', 'parent']);
  }, 20_000);

  it('takes over a lock whose process is no longer running on this host', async () => {
    await fs.mkdir(t.dir, { recursive: true });
    const lockFile = path.join(t.dir, '.lock');
    await fs.writeFile(lockFile, JSON.stringify({ pid: await deadPid(), host: os.hostname(), at: '2025-01-01T00:00:00.000Z' }));
    const record = await t.ledger.append({ type: 'x', actor: ORCHESTRATOR });
    expect(record.seq).toBe(1);
    await expect(fs.stat(lockFile)).rejects.toThrow(/ENOENT/);
    expect((await fs.readdir(t.dir)).filter((name) => name.startsWith('.lock'))).toEqual([]);
  });

  it('waits for a lock held from another host (its pid cannot be checked here), then fails', async () => {
    await fs.mkdir(t.dir, { recursive: true });
    await fs.writeFile(path.join(t.dir, '.lock'), JSON.stringify({ pid: 1, host: 'build-server-7', at: '2025-01-01T00:00:00.000Z' }));
    await expect(new Ledger(t.dir, { lockTimeoutMs: 150 }).append({ type: 'x', actor: ORCHESTRATOR })).rejects.toThrow(
      /busy: pid 1 on build-server-7, since 2025-01-01T00:00:00.000Z holds its lock file .*\.lock.*delete/,
    );
  });

  it('takes over an empty lock file left by a crash between create and write', async () => {
    await fs.mkdir(t.dir, { recursive: true });
    const lockFile = path.join(t.dir, '.lock');
    await fs.writeFile(lockFile, '');
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(lockFile, old, old);
    expect((await t.ledger.append({ type: 'x', actor: ORCHESTRATOR })).seq).toBe(1);
  });
});
