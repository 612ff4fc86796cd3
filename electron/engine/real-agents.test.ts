/**
 * Real agent adapters in the enforced loop: a plain program as a `command` agent and each preset's
 * fake host (agents/fixtures/fake-host.mjs, speaking that host's documented stream) take a
 * two-item feature from the approved test list to the acceptance gate, with a repair on the way.
 * The orchestrator still decides: RED and GREEN come from its own runs, and each turn's context
 * pack, prompt, transcript and usage are in the ledger.
 */
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/agents';
import type { LedgerRecord } from '../../shared/ledger';
import type { RunEvent } from '../../shared/run';
import { Ledger } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { runFeature } from './run-feature';
import { calcSource, greenTurn, makeCycleProject, redTurn, type CycleProject } from './cycle-project.fixture';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const FAKE_HOST = resolve(import.meta.dirname, '..', 'agents', 'fixtures', 'fake-host.mjs');
const KEYS = { ANTHROPIC_API_KEY: 'sk-ant-fake-0123456789', OPENAI_API_KEY: 'sk-fake-0123456789', GEMINI_API_KEY: 'fake-gemini-0123456789' };

// T2's first GREEN is wrong (a repair round with the failure in the context pack), its second right.
const SCENARIO = {
  turns: [
    redTurn('T1'),
    greenTurn('T1'),
    redTurn('T2'),
    { role: 'driver', item: 'T2', attempt: 1, write: { 'src/calc.js': `${calcSource(['T1'])}export const fT2 = (a, b) => a - b;\n` } },
    greenTurn('T2', ['T1'], 2),
  ],
};

const projects: CycleProject[] = [];
afterAll(async () => {
  for (const p of projects) await removeDir(join(p.root, '..'));
});

describe('real agent adapters take a feature to the acceptance gate', () => {
  for (const adapter of ['command', ...PRESETS] as const) {
    it(`${adapter}`, async () => {
      const saved = { ...process.env };
      Object.assign(process.env, KEYS);
      try {
        const scenarioFile = join(await import('node:os').then((os) => os.tmpdir()), `baton-fake-scenario-${process.pid}-${adapter}.json`);
        await import('node:fs/promises').then((fs) => fs.writeFile(scenarioFile, JSON.stringify(SCENARIO)));
        const host = adapter === 'command' ? 'plain' : adapter;
        const agent = {
          adapter,
          command: [process.execPath, FAKE_HOST, host, scenarioFile],
          model: `${adapter}-model`,
          timeoutSeconds: 120,
          env: adapter === 'command' ? { FAKE_QUERY: 'select count(*)::int as n from notes' } : {},
        };
        // The plain program and Claude Code take both items (T2 with its repair); the other hosts one each, to keep the suite's time down.
        const full = adapter === 'command' || adapter === 'claude';
        const items = full ? ['T1', 'T2'] : ['T2'];
        const project = await makeCycleProject(items, { turns: [] }, { repairBudget: 2, agents: { navigator: agent, driver: agent } });
        await seedTemplate(project.dataDir);
        projects.push(project);
        const events: RunEvent[] = [];
        const summary = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, onEvent: (e) => events.push(e) });
        expect(summary.stoppedAt, JSON.stringify(summary)).toMatch(/waiting at the acceptance gate/);
        expect(summary.escalations).toEqual([]);
        expect((summary.items.byStatus.green ?? 0) + (summary.items.byStatus.refactored ?? 0)).toBe(items.length);
        expect(summary.repairs).toBe(1);

        const ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
        const records = (await ledger.read()).records;
        const greens = records.filter((r) => r.type === 'cycle.green');
        expect(greens.length).toBe(items.length + 1);
        for (const g of greens) expect(g.data.agent).toMatchObject({ host: adapter });
        if (adapter === 'claude')
          expect(greens[0]!.data.agent).toMatchObject({ model: 'claude-fake-1', inputTokens: 1500, outputTokens: 450, costUsd: 0.0123 });
        // The repair's context pack carries the failing test and the runner's output.
        const repair = greens.find((r) => r.subject.item === 'T2' && r.data.attempt === 2)!;
        const pack = JSON.parse((await blob(ledger, repair, 'agent/context.json'))!.toString('utf8')) as {
          failure: { failingTests: string[]; output: string };
        };
        expect(pack.failure.failingTests.join(' ')).toMatch(/T2 adds/);
        const prompt = (await blob(ledger, repair, 'agent/prompt.md'))!.toString('utf8');
        expect(prompt).toMatch(/## The last run failed/);
        expect(prompt).toMatch(/Given two numbers/);
        // The reviewer got the diff, not the Driver's account.
        const review = records.find((r) => r.type === 'cycle.reviewed')!;
        const reviewPack = (await blob(ledger, review, 'agent/context.json'))!.toString('utf8');
        expect(reviewPack).toContain('"diff"');
        expect(reviewPack).not.toContain('[plain]');
        // The live panel saw the host's stream as it happened, with the keys scrubbed.
        const live = events.flatMap((e) => (e.kind === 'turn.output' ? [e.chunk] : [])).join('');
        expect(live).toContain(`[${adapter}]`);
        for (const key of Object.values(KEYS)) expect(live).not.toContain(key);
        if (adapter === 'command') expect(live).toMatch(/query: \[\{"n":0\}\]/);
      } finally {
        process.env = saved;
      }
    }, 240_000);
  }
});

async function blob(ledger: Ledger, record: LedgerRecord, name: string): Promise<Buffer | null> {
  const ref = record.blobs.find((b) => b.name === name);
  return ref ? ledger.readBlob(ref.sha256) : null;
}
