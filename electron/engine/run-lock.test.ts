/**
 * One run per project: two runs started together on the same project (real git, PGlite,
 * node:test) — exactly one proceeds and builds the item, the other is refused at once naming the
 * holder; a lock left by a process that is gone is taken over, one held by a live process is not.
 */
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { runFeature } from './run-feature';
import { calcSource, makeCycleProject, testFile, type CycleProject } from './cycle-project.fixture';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const SCENARIO = {
  turns: [
    { role: 'navigator', item: 'T1', write: { 'test/T1.test.js': testFile([['T1 adds', 'assert.equal(calc.fT1?.(2, 3), 5);']]) } },
    { role: 'driver', item: 'T1', write: { 'src/calc.js': calcSource(['T1']) } },
  ],
};

describe('the run lock', () => {
  let project: CycleProject;
  const lockFile = () => join(project.root, '.baton', 'state', 'run.lock');
  const run = () => runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir });

  beforeEach(async () => {
    project = await makeCycleProject(['T1'], SCENARIO as never, { repairBudget: 0 });
    await seedTemplate(project.dataDir);
  }, 120_000);
  afterEach(() => removeDir(join(project.root, '..')));

  it('two runs started together: exactly one proceeds, the other is refused naming the holder', async () => {
    const outcomes = await Promise.allSettled([run(), run()]);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    const done = outcomes.filter((o) => o.status === 'fulfilled');
    expect(refused).toHaveLength(1);
    expect(done).toHaveLength(1);
    expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(
      new RegExp(`Another Baton run \\(pid ${process.pid} on .+\\) is working on this project`),
    );
    const { records } = await Ledger.forArtifactRoot(join(project.root, '.baton')).read();
    // One run's work, once: a single cycle for T1.
    expect(records.filter((r) => r.type === 'cycle.planned' && r.subject.item === 'T1')).toHaveLength(1);
    // Released when the run ended: a third run may start.
    await expect(run()).resolves.toBeDefined();
  }, 300_000);

  it('a lock left by a process that is gone is taken over; one held by a live process refuses', async () => {
    await mkdir(join(project.root, '.baton', 'state'), { recursive: true });
    const child = spawn('sleep', ['30']);
    try {
      await writeFile(lockFile(), JSON.stringify({ pid: child.pid, host: hostname(), at: '2026-01-01T00:00:00.000Z' }));
      await expect(run()).rejects.toThrow(`Another Baton run (pid ${child.pid} on ${hostname()}, since 2026-01-01T00:00:00.000Z) is working on this project`);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await expect(run()).resolves.toBeDefined();
  }, 300_000);
});
