/**
 * The evaluation's bookkeeping (issue 36) with stand-in workflows: every (task, workflow, agent,
 * rep) runs once in a folder of its own, seeds are stable, a start killed half-way resumes keeping
 * finished runs and redoing the half-made one, and a plan or hypothesis changed after the first
 * start is refused. The real workflows are exercised end to end in eval-cli.test.ts.
 */
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgents, type EvalAgent } from './agents';
import { runEval, runFolder, runKeys, seedOf, type EvalOptions } from './run-eval';
import type { EvalTask, HeldoutResult } from './types';
import type { WorkflowOutcome, WorkflowRunner } from './workflow-run';
import { resolveWorkflows } from './workflows';

const dirs: string[] = [];
afterEach(async () => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))));

const task = (id: string): EvalTask => ({
  id,
  title: id,
  feature: `F-${id}`,
  dir: `/nowhere/${id}`,
  repo: `/nowhere/${id}/repo`,
  heldout: `/nowhere/${id}/heldout`,
  request: 'r',
});
const agent = (name: string): EvalAgent => ({ name, settingFor: () => 'claude', missingFor: async () => null });

function outcome(delivered: boolean, tree: string): WorkflowOutcome {
  return {
    delivered,
    outcome: delivered ? 'ok' : 'no',
    deliveredTree: tree,
    workMs: 4,
    wallMs: 5,
    agentMs: 3,
    tokens: null,
    costUsd: null,
    interventions: 0,
    repairs: 0,
    violations: 0,
    mutationScore: null,
    linesOfCode: 10,
    ledger: null,
  };
}

async function plan(extra: Partial<EvalOptions> = {}): Promise<EvalOptions> {
  const out = await mkdtemp(join(tmpdir(), 'baton-eval-'));
  dirs.push(out);
  return {
    tasks: [task('a'), task('b')],
    workflows: await resolveWorkflows('enforced,baseline'),
    agents: [agent('x'), agent('y')],
    reps: 2,
    seed: 7,
    out,
    parallel: 2,
    timeLimitMs: 60_000,
    hypothesis: null,
    judge: async (): Promise<HeldoutResult> => ({ total: 4, passed: 3, failed: ['edge'], ms: 1, error: null }),
    ...extra,
  };
}

describe('baton eval bookkeeping', () => {
  it('runs every task × workflow × agent × rep once, each in a folder of its own, with seeds fixed by the seed', async () => {
    const seen: string[] = [];
    const runner: WorkflowRunner = async (run) => {
      seen.push(run.folder);
      await writeFile(join(run.folder, 'marker'), run.workflow.name);
      return outcome(run.workflow.kind === 'enforced', run.folder);
    };
    const options = await plan({ runners: { enforced: runner, 'single-turn': runner } });
    const done = await runEval(options);
    expect(done.results).toHaveLength(2 * 2 * 2 * 2);
    expect(new Set(seen).size).toBe(16);
    expect(done.results.map((r) => r.folder)).toEqual(runKeys(options).map((k) => runFolder('', k)));
    expect(done.results.filter((r) => r.delivered).every((r) => r.workflow === 'enforced')).toBe(true);
    expect(done.results[0]!.heldout).toEqual({ total: 4, passed: 3, failed: ['edge'], ms: 1, error: null });
    // The same seed gives the same runs' seeds; another seed other ones.
    expect(runKeys(options).map((k) => k.seed)).toEqual(runKeys({ ...options }).map((k) => k.seed));
    expect(seedOf(8, { task: 'a', workflow: 'enforced', agent: 'x', rep: 1 })).not.toBe(seedOf(7, { task: 'a', workflow: 'enforced', agent: 'x', rep: 1 }));
    const stored = JSON.parse(await readFile(join(options.out, runFolder('', runKeys(options)[0]!), 'result.json'), 'utf8')) as { seed: number };
    expect(stored.seed).toBe(runKeys(options)[0]!.seed);
  });

  it('resumes a start that was killed: finished runs are kept, the half-made one is run again from nothing', async () => {
    let calls = 0;
    const controller = new AbortController();
    const dying: WorkflowRunner = async (run) => {
      calls++;
      await writeFile(join(run.folder, 'half-made'), 'x');
      if (calls === 3) {
        controller.abort();
        throw new Error('killed');
      }
      return outcome(true, run.folder);
    };
    const options = await plan({ parallel: 1, runners: { enforced: dying, 'single-turn': dying }, signal: controller.signal });
    await expect(runEval(options)).rejects.toThrow();
    const finished = (
      await Promise.all(
        runKeys(options).map((k) =>
          stat(join(runFolder(options.out, k), 'result.json')).then(
            () => 1,
            () => 0,
          ),
        ),
      )
    ).reduce<number>((a, b) => a + b, 0);
    expect(finished).toBe(2);
    const again: string[] = [];
    const fine: WorkflowRunner = async (run) => {
      again.push(run.folder);
      // The killed run's leftovers are gone before it runs again.
      expect(await readdir(run.folder)).toEqual([]);
      return outcome(true, run.folder);
    };
    const { signal: _s, ...rest } = options;
    const done = await runEval({ ...rest, runners: { enforced: fine, 'single-turn': fine } });
    expect(done.resumed).toBe(2);
    expect(again).toHaveLength(14);
    expect(done.results).toHaveLength(16);
  });

  it('runs only the runs --only matches (a fan-out job), and reports what is finished; an empty list runs nothing', async () => {
    const ran: string[] = [];
    const runner: WorkflowRunner = async (run) => {
      ran.push(run.folder);
      return outcome(true, run.folder);
    };
    const options = await plan({ runners: { enforced: runner, 'single-turn': runner } });
    const job = await runEval({ ...options, only: ['a/enforced/x/*', 'b/baseline/y/2'] });
    expect([job.results.length, job.planned, ran.length]).toEqual([3, 16, 3]);
    expect(job.results.map((r) => `${r.task}/${r.workflow}/${r.agent}/${r.rep}`)).toEqual(['a/enforced/x/1', 'a/enforced/x/2', 'b/baseline/y/2']);
    const report = await runEval({ ...options, only: [] });
    expect([report.results.length, report.resumed, ran.length]).toEqual([3, 3, 3]);
  });

  it('keeps a finished run only when its ledger says the same: an edited, copied or unbacked result.json is refused by name', async () => {
    const runner: WorkflowRunner = async (run) => outcome(true, run.folder);
    const options = await plan({ reps: 1, runners: { enforced: runner, 'single-turn': runner } });
    await runEval(options);
    const [first, second] = runKeys(options).map((k) => join(runFolder(options.out, k), 'result.json'));
    const original = await readFile(first!, 'utf8');
    const edit = async (change: (r: Record<string, unknown>) => Record<string, unknown>) =>
      writeFile(first!, JSON.stringify(change(JSON.parse(original) as Record<string, unknown>)));
    const report = () => runEval({ ...options, only: [] });

    await edit((r) => ({ ...r, heldout: { total: 4, passed: 4, failed: [], ms: 1, error: null } }));
    await expect(report()).rejects.toThrow(
      /runs\/a\/enforced\/x\/rep-1\/result\.json differs from its ledger's eval\.run record \(heldout\): .*Remove runs\/a\/enforced\/x\/rep-1/,
    );
    await edit((r) => ({ ...r, delivered: false, violations: 2 }));
    await expect(report()).rejects.toThrow(/\(delivered, violations\)/);
    // Another run's result, copied in: it names the other folder.
    await writeFile(first!, await readFile(second!, 'utf8'));
    await expect(report()).rejects.toThrow(/says it is the result of runs\/a\/enforced\/y\/rep-1/);
    await edit((r) => ({ ...r, ledger: '../../../../../elsewhere' }));
    await expect(report()).rejects.toThrow(/names a ledger outside its run/);
    await writeFile(first!, '{"heldout": ');
    await expect(report()).rejects.toThrow(/is not JSON/);
    // The result as written, beside a ledger whose record was changed to match a forged figure.
    await writeFile(first!, original);
    const events = join(runFolder(options.out, runKeys(options)[0]!), 'evidence', 'ledger', 'events.jsonl');
    const ledger = await readFile(events, 'utf8');
    await writeFile(events, ledger.replace('"violations":0', '"violations":3'));
    await expect(report()).rejects.toThrow(/has a ledger whose chain does not verify/);
    await writeFile(events, ledger);
    // Put back as written, the run is kept again; the harness's own time is not a recorded figure.
    await edit((r) => ({ ...r, harnessMs: 999 }));
    expect((await report()).resumed).toBe(8);
  });

  it('refuses to resume with another plan, or with a hypothesis changed after the first start', async () => {
    const runner: WorkflowRunner = async (run) => outcome(true, run.folder);
    const options = await plan({
      reps: 1,
      runners: { enforced: runner, 'single-turn': runner },
      hypothesis: 'claim: enforced > baseline on heldoutPassRate\n',
    });
    await runEval(options);
    expect(await readFile(join(options.out, 'hypothesis.md'), 'utf8')).toContain('claim: enforced > baseline');
    await expect(runEval({ ...options, reps: 2 })).rejects.toThrow(/another plan/);
    await expect(runEval({ ...options, hypothesis: 'claim: baseline > enforced on heldoutPassRate\n' })).rejects.toThrow(/pre-registration/);
    // The same plan and hypothesis resume (nothing to run).
    expect((await runEval(options)).resumed).toBe(8);
  });
});

describe('workflows and agents from their options', () => {
  it('reads the bundled workflows and refuses unknown names and bad files with what to do', async () => {
    const [enforced, baseline, tdd] = await resolveWorkflows('enforced,baseline,prompted-tdd');
    expect(enforced!.kind).toBe('enforced');
    expect(baseline!.prompt).toContain('{request}');
    expect(tdd!.prompt).toMatch(/test-first|test-driven/i);
    await expect(resolveWorkflows('enforced,waterfall')).rejects.toThrow(/No workflow "waterfall": the known ones are .*baseline/);
    const dir = await mkdtemp(join(tmpdir(), 'baton-wf-'));
    dirs.push(dir);
    await writeFile(join(dir, 'mine.json'), JSON.stringify({ name: 'mine', description: 'd', kind: 'single-turn', prompt: 'no placeholder' }));
    await expect(resolveWorkflows(join(dir, 'mine.json'))).rejects.toThrow(/prompt: a single-turn workflow needs a prompt that contains \{request\}/);
  });

  it('gives the fakes a behaviour file per task, and reads named real agents from a file', async () => {
    const fakes = await resolveAgents('fakes');
    expect(fakes.map((a) => a.name)).toEqual(['honest', 'sloppy', 'cheater']);
    expect(await fakes[0]!.missingFor(task('no-such-task'))).toMatch(/has no behaviour for task no-such-task/);
    expect(JSON.stringify(fakes[2]!.settingFor(task('inventory')))).toContain('cheater.json');
    expect((await resolveAgents('claude,codex')).map((a) => a.settingFor(task('a')))).toEqual(['claude', 'codex']);
    await expect(resolveAgents('gpt-7')).rejects.toThrow(/give "fakes", a JSON file/);
    const dir = await mkdtemp(join(tmpdir(), 'baton-agents-'));
    dirs.push(dir);
    await writeFile(join(dir, 'agents.json'), JSON.stringify({ sonnet: { adapter: 'claude', model: 'sonnet' } }));
    expect((await resolveAgents(join(dir, 'agents.json')))[0]!.settingFor(task('a'))).toEqual({ adapter: 'claude', model: 'sonnet' });
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ sonnet: { adapter: 'nope' } }));
    await expect(resolveAgents(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json: sonnet/);
  });
});
