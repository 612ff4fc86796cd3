/**
 * A run's own copy of a task's starting project (issue 36): copied into the run's folder with its
 * own `pg`, made a git repository, its agents set to the agent under evaluation. The held-out
 * suite (the task's `heldout/`) is never copied: no agent turn can read it.
 */
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { AGENT_ROLES, type AgentSetting } from '../../shared/agents';
import { matchesAny } from '../../shared/glob';
import { copyDependencies } from '../engine/prepare-demo';
import { packageRoot } from '../platform/package-root';
import type { EvalTask } from './types';

const exec = promisify(execFile);
export const EVAL_APPROVER = 'Evaluation harness <eval@baton.invalid>';

export interface TaskCopy {
  /** Keep the task's .baton folder (the enforced workflow); a single-turn workflow's agent gets the plain repository. */
  readonly baton: boolean;
  readonly agent: AgentSetting;
}

export async function copyTask(task: EvalTask, root: string, options: TaskCopy): Promise<void> {
  await rm(root, { recursive: true, force: true });
  await cp(task.repo, root, { recursive: true, filter: (src) => !/[\\/](node_modules|reports)$/.test(src) });
  await copyDependencies(join(packageRoot(import.meta.url), 'node_modules'), join(root, 'node_modules'), ['pg']);
  if (options.baton) {
    const file = join(root, '.baton', 'project.json');
    const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    delete settings.scenario;
    settings.agents = Object.fromEntries(AGENT_ROLES.map((role) => [role, options.agent]));
    await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`);
  } else {
    // The single-turn agent reads the request in its prompt; the test command stays in package.json.
    await rm(join(root, '.baton'), { recursive: true, force: true });
  }
  const git = (...args: string[]) => exec('git', args, { cwd: root });
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'Baton Eval');
  await git('config', 'user.email', 'eval@baton.invalid');
  await exec('sh', ['-c', 'printf "/node_modules\\n/reports/\\n" >> .git/info/exclude'], { cwd: root });
  await git('add', '-A');
  await git('commit', '-q', '-m', `${task.id}: the starting project`);
}

/** Non-blank lines of the files `patterns` match under `root` (the delivered code's size); node_modules and .git are skipped. */
export async function linesOf(root: string, patterns: readonly string[]): Promise<number> {
  const files = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((f) => !/(^|\/)(node_modules|\.git)\//.test(f) && matchesAny(f, patterns));
  let lines = 0;
  for (const file of files) lines += (await readFile(join(root, file), 'utf8').catch(() => '')).split('\n').filter((l) => l.trim()).length;
  return lines;
}
