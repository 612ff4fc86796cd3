import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLease, activeLeases } from './leases';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-leases-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (so no live process has it, barring reuse). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('leases', () => {
  it('a lease is active until released; two holders on one pair are both seen', async () => {
    const releaseA = await acquireLease(dir, 'exp-1', 'cycle F-1/T1');
    const releaseB = await acquireLease(dir, 'exp-1', 'cycle F-1/T2');
    expect((await activeLeases(dir)).map((l) => [l.name, l.holder, l.pid]).sort()).toEqual([
      ['exp-1', 'cycle F-1/T1', process.pid],
      ['exp-1', 'cycle F-1/T2', process.pid],
    ]);
    await releaseA();
    await releaseA();
    expect((await activeLeases(dir)).map((l) => l.holder)).toEqual(['cycle F-1/T2']);
    await releaseB();
    expect(await activeLeases(dir)).toEqual([]);
  });

  it('ignores (and clears) a lease whose process has died', async () => {
    await mkdir(join(dir, 'leases'));
    const pid = await deadPid();
    await writeFile(
      join(dir, 'leases', 'exp-2.stale.json'),
      JSON.stringify({ name: 'exp-2', holder: 'crashed cycle', pid, host: hostname(), at: new Date().toISOString() }),
    );
    expect(await activeLeases(dir)).toEqual([]);
    expect(await readdir(join(dir, 'leases'))).toEqual([]);
  });

  it('no leases folder: no leases', async () => {
    expect(await activeLeases(dir)).toEqual([]);
  });
});
