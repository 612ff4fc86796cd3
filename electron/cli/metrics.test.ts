/**
 * `baton metrics` on a real Baton project whose ledger holds one item's cycle written by hand: the
 * table shows the figures counted here, `--json` carries the same numbers, `--csv` one row per item
 * (an item that never ran has empty cells, not zeros), and an unknown feature is refused by name.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, Subject } from '../../shared/ledger';
import type { FeatureMetrics } from '../../shared/metrics';
import type { Smell } from '../../shared/metrics/smells';
import { RECORD_TYPES, type RecordData, type RecordType } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';
import { makeBatonProject, PERSON, type TestProject } from '../gates/gate-project.fixture';
import { baton, pointBatonDirs } from './branch-project.fixture';

const CONSORT = path.resolve(import.meta.dirname, '../../e2e/fixtures/consort-shop');

let project: TestProject;
let restoreDirs: () => void;
/** The spec approval's seq: its evidence was open 12 s, under the default 30 s of a rubber stamp. */
let specSeq: number;

const T1: Subject = { feature: 'F-1', story: 'S-1', item: 'T1', cycle: 'F-1/T1' };
const BATON: Actor = { kind: 'orchestrator', id: 'baton' };
const SETTINGS = {
  version: 1,
  name: 'shop',
  defaultBranch: 'main',
  branchProvider: 'pglite',
  testCommand: null,
  reportFormat: 'junit',
  reportPath: null,
  testGlobs: [],
  runnerConfigFiles: [],
  sourceGlobs: [],
  migrations: null,
  protectedPaths: [],
  writeScopes: {},
  agents: {},
  repairBudget: 3,
  masking: null,
};
const usage = { host: 'claude-code', model: 'sonnet', inputTokens: 1200, outputTokens: 300, costUsd: 0.02 };

/** Appends a record to the project's real ledger (which still holds its data to the type's schema); `at` is the ledger's own clock, so only `data` figures are chosen here. */
const append = <T extends RecordType>(type: T, fields: Partial<RecordData<T>>, subject: Subject = T1, actor: Actor = BATON) =>
  project.ledger.append<string>({ type, actor, subject, data: sampleData(type, fields) as Readonly<Record<string, unknown>>, blobs: [] });

beforeAll(async () => {
  project = await makeBatonProject();
  restoreDirs = pointBatonDirs(project.root);
  await append(RECORD_TYPES.cyclePlanned, {});
  await append(RECORD_TYPES.cycleRed, { turnMs: 2000, testRunMs: 1500 });
  await append(RECORD_TYPES.cycleGreen, { attempt: 1, verdict: 'failing', turnMs: 3000, testRunMs: 1000 });
  await append(RECORD_TYPES.cycleGreen, { attempt: 2, verdict: 'green', turnMs: 4000, testRunMs: 2500, agent: usage });
  await append(RECORD_TYPES.itemStatus, { item: 'T1', status: 'green' });
  await append(RECORD_TYPES.cycleFinished, { status: 'done' });
  specSeq = (await append(RECORD_TYPES.gateApproved, { gate: 'spec', approver: PERSON, waitedMs: 90_000, viewedMs: 12_000 }, { feature: 'F-1', gate: 'spec' }))
    .seq;
});

afterAll(async () => {
  restoreDirs();
  await project.cleanup();
});

describe('baton metrics', () => {
  it('prints a table per feature: the items, the totals, the gates’ latency', async () => {
    const { code, out } = await baton('metrics', project.root);
    expect(code).toBe(0);
    const t1 = out.split('\n').find((line) => line.trim().startsWith('T1'));
    // Agent 2 + 3 + 4 s, test runs 1.5 + 1 + 2.5 s, one repair (GREEN attempt 2), the Driver's reported usage.
    expect(t1).toMatch(/^\s+T1\s+S-1\s+green\s+1\s+[\d.]+ s\s+9\.0 s\s+5\.0 s\s+1\s+0\s+1200\/300\s+\$0\.0200$/);
    // T2 never ran: its figures are not recorded.
    expect(out.split('\n').find((line) => line.trim().startsWith('T2'))).toMatch(/^\s+T2\s+S-1\s+pending\s+0\s+—\s+—\s+—\s+—\s+—\s+—\s+—$/);
    expect(out).toContain('First-pass GREEN: 0%');
    expect(out).toMatch(/spec\s+1\s+90\.0 s\s+90\.0 s\s+12\.0 s/);
  });

  it('--json carries the same numbers', async () => {
    const { code, out } = await baton('metrics', project.root, '--feature', 'F-1', '--json');
    expect(code).toBe(0);
    const { features } = JSON.parse(out) as { features: FeatureMetrics[] };
    expect(features.map((f) => f.feature)).toEqual(['F-1']);
    const [t1, t2] = features[0]!.items;
    // The status the board shows (the view folds the item's `item.status` records), T2's as its test list says.
    expect([t1!.status, t2!.status]).toEqual(['green', 'pending']);
    expect(t1).toMatchObject({ item: 'T1', agentMs: 9000, testRunMs: 5000, firstPassGreen: false, counts: { repairs: 1, violations: 0 } });
    expect(t1!.cycleTimeMs).toBeGreaterThanOrEqual(0);
    expect(t1!.usage).toEqual({ turns: 3, reported: 1, inputTokens: 1200, outputTokens: 300, costUsd: 0.02 });
    expect(t2).toMatchObject({ item: 'T2', cycleTimeMs: null, agentMs: null, counts: null });
    expect(features[0]!.gateLatency).toEqual([{ gate: 'spec', decisions: 1, meanWaitedMs: 90_000, maxWaitedMs: 90_000, meanViewedMs: 12_000 }]);
  });

  it('--csv prints a header and one row per item, empty cells where nothing is recorded', async () => {
    const { code, out } = await baton('metrics', project.root, '--csv');
    expect(code).toBe(0);
    const [header, t1, t2, ...rest] = out.split('\n');
    expect(rest).toEqual([]);
    const columns = header!.split(',');
    expect(columns.slice(0, 5)).toEqual(['feature', 'item', 'story', 'status', 'rounds']);
    const row = (line: string) => Object.fromEntries(line.split(',').map((v, i) => [columns[i], v]));
    expect(row(t1!)).toMatchObject({ feature: 'F-1', item: 'T1', agent_ms: '9000', test_run_ms: '5000', repairs: '1', input_tokens: '1200', cost_usd: '0.02' });
    expect(row(t2!)).toMatchObject({ item: 'T2', cycle_time_ms: '', agent_ms: '', repairs: '', cost_usd: '', mutation_score: '' });
  });

  it('refuses a feature that is not there, naming the ones that are', async () => {
    const { code, err } = await baton('metrics', project.root, '--feature', 'F-9');
    expect(code).toBe(1);
    expect(err).toContain(`No feature "F-9" in ${project.root}. Features: F-1.`);
    expect((await baton('metrics', project.root, '--json', '--csv')).code).toBe(2);
  });

  it('on a Consort project says its cycle figures are not recorded, and shows them as nulls', async () => {
    const shown = await baton('metrics', CONSORT);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/is a consort project: metrics come from a Baton ledger, so its cycle figures are not recorded/);
    const { features } = JSON.parse((await baton('metrics', CONSORT, '--json')).out) as { features: FeatureMetrics[] };
    expect(features.length).toBeGreaterThan(0);
    for (const item of features.flatMap((f) => f.items)) expect(item).toMatchObject({ cycleTimeMs: null, agentMs: null, counts: null });
  });

  it('--smells lists one smell a line with its records; --json gains them; the exit code stays 0', async () => {
    const shown = await baton('metrics', project.root, '--smells');
    expect(shown.code).toBe(0);
    const lines = shown.out.split('\n');
    expect(lines.slice(lines.indexOf('Smells:') + 1).filter((l) => l.trim())).toEqual([
      `  rubber-stamp  F-1/spec gate  The spec gate was approved by ${PERSON} with its evidence open for 12.0 s (under 30 s): make sure what it approved was read.  (records #${specSeq})`,
    ]);
    const { code, out } = await baton('metrics', project.root, '--json', '--smells');
    expect(code).toBe(0);
    const { smells } = JSON.parse(out) as { smells: Smell[] };
    expect(smells).toEqual([
      { kind: 'rubber-stamp', subject: { feature: 'F-1', gate: 'spec' }, says: expect.stringContaining('12.0 s') as string, records: [specSeq] },
    ]);
    expect(JSON.parse((await baton('metrics', project.root, '--json')).out)).not.toHaveProperty('smells');
    expect((await baton('metrics', project.root, '--smells', '--csv')).code).toBe(2);
  });

  it('takes its thresholds from project.json ("No smells." under laxer ones), and refuses a bad one by its key; without --smells the figures still show', async () => {
    // The fixture has no project.json (the defaults hold, as above): a minimal one, removed again after.
    const file = path.join(project.root, '.baton', 'project.json');
    const write = (smells: unknown) => writeFile(file, JSON.stringify({ ...SETTINGS, smells }));
    try {
      await write({ rubberStampSeconds: 10 });
      const lax = await baton('metrics', project.root, '--smells');
      expect([lax.code, lax.out.trim().split('\n').at(-1)]).toEqual([0, 'No smells.']);
      await write({ rubberStampSeconds: 10, stallFactor: 0.5 });
      const bad = await baton('metrics', project.root, '--smells');
      expect(bad.code).toBe(1);
      expect(bad.err).toContain('has invalid settings: smells.stallFactor: must be more than 1');
      expect((await baton('metrics', project.root)).code).toBe(0);
    } finally {
      await rm(file);
    }
  });

  // Last: it alters the ledger.
  it('shows the figures of a ledger whose chain is broken, says so and exits 1', async () => {
    const events = path.join(project.root, '.baton', 'ledger', 'events.jsonl');
    await writeFile(events, (await readFile(events, 'utf8')).replace('"turnMs":2000', '"turnMs":2001'));
    const { code, out, err } = await baton('metrics', project.root, '--json');
    expect(code).toBe(1);
    expect(err).toMatch(/the ledger's chain is broken at record #\d+: these figures may rest on altered records/);
    expect((JSON.parse(out) as { features: FeatureMetrics[] }).features[0]!.items[0]!.agentMs).toBe(9001);
  });
});
