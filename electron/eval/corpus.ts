/**
 * Evaluation tasks (issue 36): a task is a folder holding `task.json` (`{"id", "title",
 * "feature"}`, the id being the folder's name), `request.md`, `repo/` (the starting Baton project,
 * its approved design in `.baton/features/<feature>/`) and `heldout/` (the held-out suite). A
 * corpus is a folder of tasks; the bundled one is `resources/eval/tasks`.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../platform/package-root';
import type { EvalTask } from './types';

const taskSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes, at most 40'),
  title: z.string().min(1),
  feature: z.string().min(1),
});

export const defaultCorpus = (): string => join(packageRoot(import.meta.url), 'resources', 'eval', 'tasks');

const isDir = (path: string) =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

export async function readTask(folder: string): Promise<EvalTask> {
  const dir = resolve(folder);
  const file = join(dir, 'task.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `The task file ${file} does not read as JSON (${error instanceof Error ? error.message : String(error)}): a task folder needs task.json with id, title and feature.`,
    );
  }
  const parsed = taskSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`The task file ${file}: ${issue.path.join('.') || '(top level)'}: ${issue.message}. See docs/eval.md for the format.`);
  }
  const task = parsed.data;
  if (task.id !== basename(dir)) throw new Error(`The task file ${file} names the task "${task.id}": name its folder ${task.id}, or change the id.`);
  for (const part of ['repo', 'heldout'])
    if (!(await isDir(join(dir, part)))) throw new Error(`The task ${task.id} has no ${part}/ folder (${join(dir, part)}): a task needs repo/ and heldout/.`);
  if (!(await isDir(join(dir, 'repo', '.baton', 'features', task.feature))))
    throw new Error(`The task ${task.id} names the feature ${task.feature}, which is not in repo/.baton/features/: fix "feature" in task.json.`);
  const request = await readFile(join(dir, 'request.md'), 'utf8').catch(() => {
    throw new Error(`The task ${task.id} has no request.md: write the request paragraph there.`);
  });
  return { ...task, dir, repo: join(dir, 'repo'), heldout: join(dir, 'heldout'), request };
}

/** Every task in `folder` (a subfolder with task.json), sorted by id; a folder that is itself a task is a corpus of one. */
export async function readCorpus(folder: string): Promise<EvalTask[]> {
  const dir = resolve(folder);
  if (!(await isDir(dir))) throw new Error(`--tasks ${folder} is not a folder: give a folder of tasks (docs/eval.md).`);
  if (await stat(join(dir, 'task.json')).catch(() => null)) return [await readTask(dir)];
  const tasks: EvalTask[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1)))
    if (await stat(join(dir, entry.name, 'task.json')).catch(() => null)) tasks.push(await readTask(join(dir, entry.name)));
  return tasks;
}
