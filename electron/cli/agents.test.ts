/**
 * Real agents through the CLI, as a user drives them: a small feature built by a plain program
 * configured as the `command` agent in `.baton/project.json` (it plays a scenario file of its own,
 * knowing nothing of Baton but the documented protocol), with a repair, a rejected RED and a locked
 * test the Driver tries to weaken; a missing agent CLI refused before the run starts; a recorded run
 * turned into a scenario and replayed to the same figures (or told apart from them).
 */
import { execFile } from 'node:child_process';
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { calcSource, greenTurn, makeCycleProject, redTurn, testFile } from '../engine/cycle-project.fixture';
import { removeDir } from '../project/temp-project.fixture';
import { detectBubblewrap } from '../process/sandbox';
import { Ledger } from '../ledger';
import { RECORD_TYPES } from '../../shared/records';
import { seedTemplate } from '../branches/pglite/pglite.fixture';
import { projectDataDir } from '../platform/data-dir';

const exec = promisify(execFile);
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.mjs');
const FAKE_HOST = resolve(import.meta.dirname, '..', 'agents', 'fixtures', 'fake-host.mjs');

async function baton(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const cleanup: string[] = [];

/** The CLI keeps a project's databases in projectDataDir(root, BATON_DATA_DIR): seeded there, its first branch skips initdb. */
async function seedForCli(project: { root: string; dataDir: string }): Promise<void> {
  await seedTemplate(projectDataDir(await realpath(project.root), project.dataDir));
}
afterAll(async () => {
  for (const dir of cleanup) await removeDir(dir);
});

describe('a small feature built by a command agent', () => {
  // T1: the first GREEN misses (one repair round). T2: the first RED passes at once (add() exists
  // since T1) and is rejected; its GREEN also weakens the locked test.
  const weakT2 = testFile([['T2 adds', 'assert.ok(true);']]);
  const MOVES = {
    turns: [
      redTurn('T1'),
      { role: 'driver', item: 'T1', attempt: 1, write: { 'src/calc.js': `${calcSource([])}export const fT1 = () => 0;\n` } },
      greenTurn('T1', [], 2),
      { role: 'navigator', item: 'T2', attempt: 1, write: { 'test/T2.test.js': testFile([['T2 adds', 'assert.equal(calc.add(2, 3), 5);']]) } },
      { ...redTurn('T2'), attempt: 2 },
      { ...greenTurn('T2', ['T1']), write: { ...greenTurn('T2', ['T1']).write, 'test/T2.test.js': weakT2 } },
    ],
  };

  it('refuses a missing agent CLI before the run starts, then takes the feature to the acceptance gate with a plain program as both roles', async () => {
    // The agent program knows its moves from its own scenario file, outside the project.
    const moves = join(await import('node:os').then((os) => os.tmpdir()), `baton-command-moves-${process.pid}.json`);
    await writeFile(moves, JSON.stringify(MOVES));
    cleanup.push(moves);
    const agent = { adapter: 'command', command: [process.execPath, FAKE_HOST, 'plain', moves], timeoutSeconds: 120 };
    const project = await makeCycleProject(['T1', 'T2'], { turns: [] }, { agents: { navigator: agent, driver: agent } });
    cleanup.push(join(project.root, '..'));
    await seedForCli(project);
    const env = { BATON_DATA_DIR: project.dataDir };

    const missing = await baton(['run', project.root, '--agent', 'driver=claude', '--json'], { ...env, PATH: dirname(process.execPath) + ':/usr/bin:/bin' });
    expect(missing.code).toBe(1);
    expect(`${missing.stdout}${missing.stderr}`).toMatch(/claude is not found on PATH.*npm install -g @anthropic-ai\/claude-code/);

    const ran = await baton(['run', project.root, '--until', 'acceptance', '--json'], env);
    expect(ran.code, ran.stderr).toBe(0);
    const summary = JSON.parse(ran.stdout) as {
      items: { total: number; byStatus: Record<string, number> };
      repairs: number;
      violations: number;
      rejectedRed: number;
      escalations: unknown[];
      stoppedAt: string;
    };
    expect(summary.items.total).toBe(2);
    expect((summary.items.byStatus.green ?? 0) + (summary.items.byStatus.refactored ?? 0)).toBe(2);
    // T2's Driver weakens its locked test: in the sandbox the file is read-only and the write fails
    // (blocked); without one it lands, is caught and restored, and recorded as a violation.
    const blocked = (await detectBubblewrap()).ok;
    expect(summary).toMatchObject({ repairs: 1, violations: blocked ? 0 : 1, rejectedRed: 1, escalations: [] });
    expect(summary.stoppedAt).toMatch(/acceptance gate/);

    const log = await baton(['log', project.root, '--json'], env);
    const { records } = JSON.parse(log.stdout) as { records: Array<{ type: string; data: { agent?: { host: string } }; blobs: Array<{ name: string }> }> };
    const greens = records.filter((r) => r.type === RECORD_TYPES.cycleGreen);
    expect(greens.length).toBeGreaterThanOrEqual(3);
    expect(greens.every((r) => r.data.agent?.host === 'command')).toBe(true);
    expect(greens.every((r) => r.blobs.some((b) => b.name === 'agent/context.json'))).toBe(true);
    if (blocked) {
      const ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
      const t2 = (await ledger.read()).records.find((r) => r.type === RECORD_TYPES.cycleGreen && r.subject.item === 'T2')!;
      const transcript = await ledger.readBlob(t2.blobs.find((b) => b.name === 'agent/transcript.txt')!.sha256);
      expect(transcript?.toString('utf8')).toMatch(/could not write test\/\S+: EROFS/);
    }
    expect((await baton(['verify', project.root, '--json'], env)).code).toBe(0);
  }, 600_000);
});

describe('record and replay', () => {
  const SCENARIO = {
    turns: [
      redTurn('T1'),
      { role: 'driver', item: 'T1', attempt: 1, write: { 'src/calc.js': `${calcSource([])}export const fT1 = () => 0;\n` } },
      greenTurn('T1', [], 2),
      // The Navigator also tries to write source: reverted, and reverted again on replay.
      { ...redTurn('T2'), write: { ...redTurn('T2').write, 'src/sneaky.js': 'export const x = 1;\n' } },
      greenTurn('T2', ['T1']),
      { role: 'navigator', item: 'T2', step: 'review', decision: 'accept' },
    ],
  };

  it('a run by a real agent records a scenario that replays to the same figures, from the project or from the scenario file, and says so or names each difference', async () => {
    const moves = join(await import('node:os').then((os) => os.tmpdir()), `baton-replay-moves-${process.pid}.json`);
    await writeFile(moves, JSON.stringify(SCENARIO));
    cleanup.push(moves);
    const agent = { adapter: 'codex', command: [process.execPath, FAKE_HOST, 'codex', moves] };
    const recorded = await makeCycleProject(['T1', 'T2'], { turns: [] }, { repairBudget: 2, agents: { navigator: agent, driver: agent } });
    cleanup.push(join(recorded.root, '..'));
    await seedForCli(recorded);
    const env = { OPENAI_API_KEY: 'sk-fake-0123456789', BATON_DATA_DIR: recorded.dataDir };
    const ran = await baton(['run', recorded.root, '--until', 'acceptance', '--json'], env);
    expect(ran.code, ran.stderr).toBe(0);

    const out = join(dirname(recorded.root), 'recording.json');
    const made = await baton(['record-scenario', recorded.root, '--out', out, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const scenario = JSON.parse(await readFile(out, 'utf8')) as {
      recorded: { feature: string; repairs: number };
      turns: Array<{ role: string; step: string; item: string; attempt: number }>;
    };
    expect(scenario.turns.filter((t) => t.item === 'T1' && t.step === 'green').map((t) => t.attempt)).toEqual([1, 2]);
    // The file carries what the recording reached, so a replay from the file alone is compared too.
    expect(scenario.recorded).toMatchObject({ feature: 'F-1', repairs: 1 });
    const differing = join(dirname(recorded.root), 'recording-differing.json');
    await writeFile(differing, JSON.stringify({ ...scenario, recorded: { ...scenario.recorded, repairs: 7 } }));

    const replay = async (from: string, json: boolean) => {
      const fresh = await makeCycleProject(['T1', 'T2'], { turns: [] }, { repairBudget: 2 });
      cleanup.push(join(fresh.root, '..'));
      await seedForCli(fresh);
      const result = await baton(['replay', fresh.root, '--from', from, ...(json ? ['--json'] : [])], { BATON_DATA_DIR: fresh.dataDir });
      return { ...result, root: fresh.root };
    };
    const fromProject = await replay(recorded.root, true);
    expect(fromProject.code, fromProject.stderr).toBe(0);
    const result = JSON.parse(fromProject.stdout) as { matches: boolean | null; differences: string[]; repairs: number };
    expect(result).toMatchObject({ repairs: 1, matches: true, differences: [] });
    // Played by the scripted agent: no host usage on its verdicts.
    const log = JSON.parse((await baton(['log', fromProject.root, '--json'])).stdout) as { records: Array<{ type: string; data: { agent?: unknown } }> };
    const greens = log.records.filter((r) => r.type === RECORD_TYPES.cycleGreen);
    expect(greens.length).toBe(3);
    expect(greens.every((r) => r.data.agent === undefined)).toBe(true);

    const fromFile = await replay(out, false);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toContain('Replay matches the recording: same item statuses, repairs, violations, rejected REDs and escalations.');
    const differs = await replay(differing, false);
    expect(differs.code).toBe(1);
    expect(differs.stdout).toContain('Replay differs from the recording:\n  repairs: recorded 7, replayed 1');
  }, 600_000);

  it('says what is wrong with a --from that is neither a recording nor a scenario', async () => {
    const bad = join(await import('node:os').then((os) => os.tmpdir()), `baton-bad-scenario-${process.pid}.json`);
    await writeFile(bad, '{"turns": [{"role": "wizard"}]}');
    cleanup.push(bad);
    const fresh = await makeCycleProject(['T1'], { turns: [] });
    cleanup.push(join(fresh.root, '..'));
    const replay = await baton(['replay', fresh.root, '--from', bad]);
    expect(replay.code).toBe(1);
    expect(replay.stderr).toMatch(/turns\.0\.role/);
    await rm(bad, { force: true });
  });
});
