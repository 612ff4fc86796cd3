/**
 * The demo project as `baton demo` prepares it (resources/demo copied to a temporary git
 * repository, its spec, design and test_list gates approved by the demo Product Owner), with a data
 * folder of its own (BATON_DATA_DIR) for its database branches. The preparation runs Baton's own
 * prepareDemo() through tsx, as the CLI does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

export interface DemoProject {
  readonly root: string;
  readonly feature: string;
  readonly dataDir: string;
}

const PREPARE = `
const { prepareDemo } = await import('./electron/engine/prepare-demo.ts');
// Mutation testing adds test runs to every GREEN; the UI's mutation badges have their own test (renderer/src/inbox).
const demo = await prepareDemo(process.argv[1], { settings: { mutation: { enabled: false } } });
process.stdout.write(JSON.stringify(demo));
`;

/** Prepares the demo in `scratch`, its data folder in data/. */
export function makeDemoProject(scratch: string): DemoProject {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PREPARE, scratch], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`prepareDemo failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  const { root, feature } = JSON.parse(run.stdout) as { root: string; feature: string };
  // Branch servers are detached processes: let them exit soon after the spec stops using them.
  const settingsFile = join(root, '.baton', 'project.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { branches?: { pglite?: object } };
  settings.branches = { ...settings.branches, pglite: { ...settings.branches?.pglite, idleSeconds: 30 } };
  writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + '\n');
  execFileSync('git', ['-C', root, 'commit', '-q', '-am', 'Branch servers idle out after 30 s'], { stdio: 'pipe' });
  const dataDir = join(scratch, 'data');
  mkdirSync(dataDir);
  return { root, feature, dataDir };
}
