/**
 * `baton eval`: does enforcement pay? The same tasks under each workflow with the same agents,
 * each result judged by a held-out suite no agent sees (electron/eval/). Ctrl+C stops it; the same
 * command resumes it, keeping every finished run.
 */
import { resolve } from 'node:path';
import { flag, list, text, type Command, type Values } from '../command';
import { evaluations } from '../core';
import { EXIT, UsageError } from '../exit-codes';
import { printJson } from '../io';

const SYNOPSIS =
  'eval --agents fakes|FILE|NAMES [--tasks DIR] [--workflows enforced,baseline,prompted-tdd] [--reps N] [--seed N] [--parallel N] [--out DIR] [--hypothesis FILE] [--time-limit MINUTES] [--only GLOB ...] [--report-only] [--json]';

function whole(values: Values, name: string, fallback: number, min: number, max: number): number {
  const given = text(values, name);
  if (given === undefined) return fallback;
  const n = Number(given);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} takes a whole number from ${min} to ${max}; got "${given}".`);
  return n;
}

export const evalCommand: Command = {
  name: 'eval',
  synopsis: SYNOPSIS,
  summary:
    'Does enforcement pay? Run tasks × workflows × agents × reps (default: the bundled corpus, all three workflows), judge each result with held-out tests no agent saw, and report pass rates, cost and time with confidence intervals (report.html); resumable',
  options: {
    json: { type: 'boolean', default: false },
    tasks: { type: 'string' },
    workflows: { type: 'string' },
    agents: { type: 'string' },
    reps: { type: 'string' },
    seed: { type: 'string' },
    parallel: { type: 'string' },
    out: { type: 'string', short: 'o' },
    hypothesis: { type: 'string' },
    'time-limit': { type: 'string' },
    only: { type: 'string', multiple: true },
    'report-only': { type: 'boolean', default: false },
  },
  async run(positionals, values, io) {
    if (positionals.length) throw new UsageError(`eval takes no folder: give the tasks with --tasks. Usage: baton ${SYNOPSIS}`);
    const json = flag(values, 'json');
    const agents = text(values, 'agents');
    if (!agents)
      throw new UsageError(
        `eval needs --agents: "fakes" (the harness's own check, no model), a JSON file of named agent settings, or adapter names such as claude,codex. Usage: baton ${SYNOPSIS}`,
      );
    const tasks = text(values, 'tasks');
    const hypothesis = text(values, 'hypothesis');
    const controller = new AbortController();
    const onSigint = () => {
      io.err('baton eval: stopping; finished runs are kept. Run the same command again to resume.');
      controller.abort();
    };
    // Ctrl+C, or a SIGTERM from a job runner: the runs in flight (child `baton run`s) are stopped too.
    process.once('SIGINT', onSigint);
    process.once('SIGTERM', onSigint);
    try {
      const done = await (
        await evaluations()
      ).evaluate({
        tasks: tasks === undefined ? null : resolve(tasks),
        workflows: text(values, 'workflows') ?? 'enforced,baseline,prompted-tdd',
        agents,
        reps: whole(values, 'reps', 1, 1, 100),
        seed: whole(values, 'seed', 1, 0, 2 ** 31),
        parallel: whole(values, 'parallel', 1, 1, 16),
        out: resolve(text(values, 'out') ?? 'baton-eval'),
        hypothesis: hypothesis === undefined ? null : resolve(hypothesis),
        timeLimitMs: whole(values, 'time-limit', 30, 1, 24 * 60) * 60_000,
        only: flag(values, 'report-only') ? [] : list(values, 'only').length ? list(values, 'only') : null,
        signal: controller.signal,
        onProgress: (line) => io.err(line),
      });
      if (json) printJson(io, { ok: true, runs: done.runs, planned: done.planned, resumed: done.resumed, files: done.files, report: done.report });
      else {
        if (done.runs < done.planned) io.out(`${done.runs} of the plan's ${done.planned} runs are finished: the report covers those.\n`);
        io.out(done.text);
        io.out(`\nReport: ${done.files.html} (opens offline)  Results: ${done.files.results}`);
      }
      return EXIT.ok;
    } catch (error) {
      const message = controller.signal.aborted
        ? 'stopped before every run finished; finished runs are kept: run the same command again to resume.'
        : error instanceof Error
          ? error.message
          : String(error);
      if (json) printJson(io, { ok: false, error: { code: 'eval-failed', message } });
      io.err(`baton eval: ${message}`);
      return EXIT.problems;
    } finally {
      process.removeListener('SIGINT', onSigint);
      process.removeListener('SIGTERM', onSigint);
    }
  },
};
