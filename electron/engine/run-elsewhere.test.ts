/**
 * Whether another process runs the project now, as the screens say it: read from the run lock,
 * judged as taking it would be (a live holder elsewhere; not this process, not a dead one, not a
 * lock copied with the folder).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runElsewhere, takeRunLock } from './run-housekeeping';

let root: string;
let child: ChildProcess | null = null;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-run-elsewhere-'));
  await mkdir(join(root, '.baton', 'state'), { recursive: true });
});
afterEach(async () => {
  child?.kill('SIGKILL');
  child = null;
  await rm(root, { recursive: true, force: true });
});

const lock = (holder: object) => writeFile(join(root, '.baton', 'state', 'run.lock'), JSON.stringify(holder));

describe('runElsewhere', () => {
  it('names a live process that holds the lock here, and nothing once it is released', async () => {
    expect(await runElsewhere(root)).toBeNull();
    child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    const at = new Date().toISOString();
    await lock({ pid: child.pid, host: hostname(), at, folder: await realpath(root) });
    expect(await runElsewhere(root)).toEqual({ pid: child.pid, host: hostname(), since: at });
  });

  it('is null for this process’s own run, a holder that is gone, and a lock copied from another folder or machine', async () => {
    const release = await takeRunLock(root, () => undefined);
    expect(await runElsewhere(root)).toBeNull();
    await release();
    child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    await lock({ pid: child.pid, host: hostname(), at: new Date().toISOString(), folder: '/somewhere/else' });
    expect(await runElsewhere(root)).toBeNull();
    await lock({ pid: child.pid, host: 'another-machine', at: new Date().toISOString(), folder: await realpath(root) });
    expect(await runElsewhere(root)).toBeNull();
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => gone.once('exit', resolve));
    await lock({ pid: gone.pid, host: hostname(), at: new Date().toISOString(), folder: await realpath(root) });
    expect(await runElsewhere(root)).toBeNull();
  });
});
