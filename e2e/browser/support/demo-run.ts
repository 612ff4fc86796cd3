/**
 * The demo as a user runs it: `baton demo --json` (the whole enforced loop, to the acceptance gate,
 * on the embedded database), then `baton serve` of the project it printed. Both get one data folder
 * (BATON_DATA_DIR) so the served workbench sees the run's branches.
 */
import { test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './paths';
import { serve, type Served } from './serve';
import { removeScratch } from './remove-scratch';

export interface DemoRun {
  readonly project: string;
  readonly items: { readonly total: number; readonly byStatus: Readonly<Record<string, number>> };
}

/** Runs the demo in beforeAll (a minute or more on a small machine) and serves what it built. */
export function servedDemoRun(): () => { demo: DemoRun; served: Served } {
  let scratch: string | undefined;
  let demo: DemoRun | undefined;
  let served: Served | undefined;
  test.beforeAll(async () => {
    test.setTimeout(600_000);
    scratch = mkdtempSync(join(tmpdir(), 'baton-e2e-demo-'));
    const env = { ...process.env, BATON_DATA_DIR: join(scratch, 'data'), TMPDIR: scratch };
    const run = spawnSync(process.execPath, ['bin/baton.mjs', 'demo', '--json'], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 540_000 });
    if (run.status !== 0) throw new Error(`baton demo exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
    demo = JSON.parse(run.stdout) as DemoRun;
    const previous = { data: process.env.BATON_DATA_DIR, tmp: process.env.TMPDIR };
    process.env.BATON_DATA_DIR = env.BATON_DATA_DIR;
    process.env.TMPDIR = scratch;
    try {
      served = await serve(demo.project);
    } finally {
      for (const [key, value] of [
        ['BATON_DATA_DIR', previous.data],
        ['TMPDIR', previous.tmp],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
  test.afterAll(async () => {
    await served?.stop();
    if (scratch) await removeScratch(scratch);
    else if (demo) await removeScratch(dirname(demo.project));
  });
  return () => {
    if (!demo || !served) throw new Error('The demo did not run: beforeAll failed, see its error above.');
    return { demo, served };
  };
}
