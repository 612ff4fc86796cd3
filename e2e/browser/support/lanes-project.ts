/**
 * Two independent stories built in parallel (electron/engine/lanes-project.fixture.ts): items T1
 * (story S-1) and T2 (story S-2), each changing a file of its own, `parallel: 2`, the scripted
 * agent, its spec, design and test_list gates approved; a data folder of its own (BATON_DATA_DIR).
 */
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './paths';

export interface LanesProject {
  readonly root: string;
  readonly dataDir: string;
}

const MAKE = `
const { makeLanesProject } = await import('./electron/engine/lanes-project.fixture.ts');
const project = await makeLanesProject(['T1', 'T2'], { independent: true, independence: 'a file of its own' }, 2);
process.stdout.write(JSON.stringify(project));
`;

/** Made under `scratch` (its temporary folder), so the spec's clean-up removes it. */
export function makeParallelProject(scratch: string): LanesProject {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', MAKE], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: scratch },
  });
  if (run.status !== 0) throw new Error(`makeLanesProject failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout) as LanesProject;
}
