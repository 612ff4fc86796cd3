/**
 * What `baton eval` does once its options are read: resolve the plan, run it (resumable), write
 * results.json, report.json and report.html beside the runs, and give the report back.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveAgents } from './agents';
import { readClaims } from './hypothesis';
import { buildReport, renderText, type EvalReport } from './report';
import { renderHtml } from './report-html';
import { runEval } from './run-eval';
import { defaultCorpus, readCorpus } from './corpus';
import { resolveWorkflows } from './workflows';

export interface EvalCommand {
  readonly tasks: string | null;
  readonly workflows: string;
  readonly agents: string;
  readonly reps: number;
  readonly seed: number;
  readonly parallel: number;
  readonly out: string;
  readonly hypothesis: string | null;
  readonly timeLimitMs: number;
  /** `--only` globs (a fan-out job's share), `[]` for `--report-only`, null: every run. */
  readonly only: readonly string[] | null;
  readonly signal?: AbortSignal;
  readonly onProgress?: (line: string) => void;
}

export interface EvalDone {
  readonly report: EvalReport;
  readonly text: string;
  readonly files: { readonly results: string; readonly report: string; readonly html: string };
  readonly runs: number;
  readonly planned: number;
  readonly resumed: number;
}

export async function evaluate(command: EvalCommand): Promise<EvalDone> {
  const tasks = await readCorpus(command.tasks ?? defaultCorpus());
  if (tasks.length === 0)
    throw new Error(`No task in ${command.tasks ?? defaultCorpus()}: a task is a folder with task.json, request.md, repo/ and heldout/ (docs/eval.md).`);
  const workflows = await resolveWorkflows(command.workflows);
  const agents = await resolveAgents(command.agents);
  const hypothesis = command.hypothesis === null ? null : await readHypothesis(command.hypothesis);
  const ran = await runEval({
    tasks,
    workflows,
    agents,
    reps: command.reps,
    seed: command.seed,
    parallel: command.parallel,
    out: command.out,
    timeLimitMs: command.timeLimitMs,
    hypothesis,
    only: command.only,
    ...(command.signal ? { signal: command.signal } : {}),
    ...(command.onProgress ? { onProgress: command.onProgress } : {}),
  });
  const report = buildReport([...ran.results], { seed: command.seed, hypothesis: ran.hypothesis });
  const files = { results: join(command.out, 'results.json'), report: join(command.out, 'report.json'), html: join(command.out, 'report.html') };
  await atomic(files.results, `${JSON.stringify(ran.results, null, 2)}\n`);
  await atomic(files.report, `${JSON.stringify(report, null, 2)}\n`);
  await atomic(files.html, renderHtml(report));
  return { report, text: renderText(report), files, runs: ran.results.length, planned: ran.planned, resumed: ran.resumed };
}

async function readHypothesis(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new Error(`--hypothesis ${file} cannot be read (${error instanceof Error ? error.message : String(error)}).`);
  });
  // A bad claim line is refused before any run: a hypothesis is fixed by the first start.
  readClaims(text);
  return text;
}

async function atomic(file: string, content: string): Promise<void> {
  await writeFile(`${file}.tmp`, content);
  await rename(`${file}.tmp`, file);
}
