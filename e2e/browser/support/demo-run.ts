/**
 * The demo as a user runs it: `baton demo --json`, the whole enforced loop to the acceptance gate
 * on the embedded database (a minute or more on a small machine). The project it builds, and its
 * data folder (BATON_DATA_DIR), land in the scratch folder (TMPDIR), so the host that serves it
 * after, given the same two, sees the run's branches.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

export interface DemoRun {
  /** The folder `baton demo` built. */
  readonly project: string;
  readonly items: { readonly total: number; readonly byStatus: Readonly<Record<string, number>> };
  /** What `baton demo` ran with, and the host that serves the project needs too. */
  readonly env: { readonly BATON_DATA_DIR: string; readonly TMPDIR: string };
}

/** Runs `baton demo` in `scratch`, its data folder in data/. */
export function runDemo(scratch: string): DemoRun {
  const env = { BATON_DATA_DIR: join(scratch, 'data'), TMPDIR: scratch };
  const run = spawnSync(process.execPath, ['bin/baton.mjs', 'demo', '--no-mutation', '--json'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 540_000,
  });
  if (run.status !== 0) throw new Error(`baton demo exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  const printed = JSON.parse(run.stdout) as Omit<DemoRun, 'env'>;
  return { ...printed, env };
}
