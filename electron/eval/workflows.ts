/**
 * Workflows are data (issue 36): one JSON file each, so a team can add its own. `enforced` is
 * Baton's full cycle; `single-turn` is one agent turn given the workflow's prompt with the
 * task's request in place of `{request}`, checked only by its own tests at the end.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../platform/package-root';

export const WORKFLOW_KINDS = ['enforced', 'single-turn'] as const;

const workflowSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes, at most 40'),
    description: z.string().min(1),
    kind: z.enum(WORKFLOW_KINDS),
    /** single-turn: the agent's whole instruction; `{request}` is replaced by the task's request. */
    prompt: z.string().min(1).optional(),
  })
  .superRefine((w, ctx) => {
    if (w.kind === 'single-turn' && !w.prompt?.includes('{request}'))
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'a single-turn workflow needs a prompt that contains {request}' });
  });

export type Workflow = z.infer<typeof workflowSchema>;

export const defaultWorkflowDir = (): string => join(packageRoot(import.meta.url), 'resources', 'eval', 'workflows');

export async function readWorkflow(file: string): Promise<Workflow> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`The workflow file ${file} does not read as JSON (${error instanceof Error ? error.message : String(error)}): fix it or leave it out.`);
  }
  const parsed = workflowSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`The workflow file ${file}: ${issue.path.join('.') || '(top level)'}: ${issue.message}. See docs/eval.md for the format.`);
  }
  return parsed.data;
}

/**
 * The workflows `--workflows` names: each a name from `dir` (default resources/eval/workflows) or
 * a path to a workflow file of the team's own. Unknown names are refused with the known ones.
 */
export async function resolveWorkflows(spec: string, dir = defaultWorkflowDir()): Promise<Workflow[]> {
  const known = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  const names = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new Error(`--workflows names none: give some of ${known.join(', ')} (or paths to workflow files).`);
  const workflows: Workflow[] = [];
  for (const name of names) {
    const file = name.endsWith('.json') ? name : known.includes(name) ? join(dir, `${name}.json`) : null;
    if (!file) throw new Error(`No workflow "${name}": the known ones are ${known.join(', ')}; or give a path to a workflow file (…/name.json).`);
    const workflow = await readWorkflow(file);
    if (workflows.some((w) => w.name === workflow.name)) throw new Error(`--workflows names "${workflow.name}" twice.`);
    workflows.push(workflow);
  }
  return workflows;
}
