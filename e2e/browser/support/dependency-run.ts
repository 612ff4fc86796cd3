/**
 * A feature whose Driver asked for packages, run to the acceptance gate with a real npm and a
 * registry on loopback (electron/engine/dependencies.fixture.ts, run through tsx in a process of
 * its own, so its registry answers while the run waits). Made in the scratch folder (TMPDIR).
 */
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './paths';

export interface DependencyRun {
  readonly root: string;
  readonly dataDir: string;
  readonly items: { readonly total: number; readonly byStatus: Readonly<Record<string, number>> };
}

export function runDependencyProject(scratch: string): DependencyRun {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'electron/engine/dependencies.fixture.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, TMPDIR: scratch },
    encoding: 'utf8',
    timeout: 540_000,
  });
  if (run.status !== 0) throw new Error(`the dependency run exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as DependencyRun;
}
