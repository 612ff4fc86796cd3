/**
 * The design phase on a real project (a git repository, the embedded database): a feature taken in
 * from a paragraph, the scripted design roles writing the spec, design and test list through the
 * agent port, one refusal and retry, a second refusal escalating, a gate sent back with a note.
 */
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { approveGate, gateEvidence, rejectGate } from '../gates';
import { Ledger } from '../ledger';
import { readProject } from '../project';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import type { GateName } from '../../shared/ledger';
import { DEMO_APPROVER, DEMO_FEATURE, DEMO_REQUEST, prepareDemo, type PreparedDemo } from './prepare-demo';
import { runFeature } from './run-feature';
import { createFeature } from './intake';

let demo: PreparedDemo | null = null;
afterEach(async () => {
  if (demo) await rm(dirname(demo.root), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  demo = null;
});

interface Turn {
  role: string;
  run?: string[];
  attempt?: number;
  round?: number;
  step?: string;
  write?: Record<string, string>;
  say?: string;
}
const designTurns = async (): Promise<Turn[]> => (JSON.parse(await readFile(join(DEMO_REQUEST, 'scenario-design.json'), 'utf8')) as { turns: Turn[] }).turns;
const artifactOf = (turn: Turn): Record<string, unknown> => JSON.parse(turn.write!['artifact.json']!) as Record<string, unknown>;
const asTurn = (role: string, attempt: number, artifact: unknown, round?: number): Turn => ({
  role,
  step: 'artifact',
  attempt,
  ...(round ? { round } : {}),
  write: { 'artifact.json': JSON.stringify(artifact) },
});

const prepare = async (turns: Turn[]) => {
  demo = await prepareDemo(undefined, { fromRequest: true, files: { '.baton/scenario.json': { turns } }, settings: { mutation: { enabled: false } } });
  return demo;
};
const ledgerOf = (d: PreparedDemo) => Ledger.forArtifactRoot(join(d.root, '.baton'));
const designRecords = async (d: PreparedDemo) => recordsOf((await ledgerOf(d).read()).records, RECORD_TYPES.designTurn);
const run = (d: PreparedDemo, until: GateName) => runFeature({ root: d.root, until, dataDir: d.dataDir, gatePollMs: 50 });

async function approve(d: PreparedDemo, gate: GateName) {
  const view = await readProject(d.root);
  if (!view.ok) throw new Error(view.error.message);
  const evidence = await gateEvidence(view.value, ledgerOf(d), { feature: DEMO_FEATURE, gate });
  if (!evidence.ok) throw new Error(evidence.error.message);
  const expect = Object.fromEntries(evidence.value.artifacts.map((a) => [a.name, a.sha256 ?? '']));
  return { evidence: evidence.value, result: await approveGate(view.value, ledgerOf(d), { feature: DEMO_FEATURE, gate, approver: DEMO_APPROVER, expect }) };
}

describe('the design phase from a request', () => {
  it('writes the spec after one refused attempt, then the design and the test list, each stopping at its gate', async () => {
    const d = await prepare(await designTurns());
    expect(recordsOf((await ledgerOf(d).read()).records, RECORD_TYPES.featureRequested)[0]?.data).toMatchObject({ title: 'Inventory that never oversells' });

    expect((await run(d, 'spec')).phase).toBe('specGate');
    const [refused, written] = await designRecords(d);
    expect(refused?.data).toMatchObject({ role: 'specAuthor', attempt: 1, outcome: 'refused', files: {} });
    expect(refused?.data.problems).toContain('stories[1].acceptance_criteria[1].then: must not be empty');
    expect(written?.data).toMatchObject({ role: 'specAuthor', attempt: 2, outcome: 'written' });
    // The retry's prompt carried the validator's words; the turn's own blobs keep it.
    const prompt = written!.blobs.find((b) => b.name === 'agent/prompt.md')!;
    const promptText = (await ledgerOf(d).readBlob(prompt.sha256))!.toString();
    expect(promptText).toContain('stories[1].acceptance_criteria[1].then: must not be empty');
    expect(promptText).toContain('A small stock service for a homeware shop');
    const view = await readProject(d.root);
    const feature = view.ok ? view.value.features.find((f) => f.id === DEMO_FEATURE) : undefined;
    expect(feature?.stories.map((s) => [s.id, s.acs.length])).toEqual([
      ['S-1', 4],
      ['S-2', 4],
    ]);
    expect(JSON.parse(await readFile(join(d.root, '.baton/features/F-inventory/stories/S-2/story.json'), 'utf8'))).toMatchObject({
      independent: false,
      depends_on: ['S-1'],
    });

    expect((await approve(d, 'spec')).result.ok).toBe(true);
    expect((await run(d, 'design')).phase).toBe('designGate');
    expect((await designRecords(d)).slice(2).map((r) => [r.data.role, r.data.outcome])).toEqual([
      ['architectReviewer', 'written'],
      ['dba', 'written'],
      ['uxDesigner', 'written'],
    ]);
    // The UX Designer's screens are part of the design gate.
    expect(JSON.parse(await readFile(join(d.root, '.baton/features/F-inventory/ux-guide.json'), 'utf8'))).toMatchObject({
      screens: [{ name: 'Low-stock report' }, { name: 'Order reservation' }],
    });
    expect((await approve(d, 'design')).result.ok).toBe(true);
    expect((await run(d, 'test_list')).phase).toBe('testListGate');
    const { evidence, result } = await approve(d, 'test_list');
    expect(evidence.conformance).toEqual([]);
    expect(result.ok).toBe(true);
    const list = JSON.parse(await readFile(join(d.root, '.baton/features/F-inventory/test-list.json'), 'utf8')) as { items: { id: string; status: string }[] };
    expect(list.items.map((i) => `${i.id}:${i.status}`)).toEqual(['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8'].map((id) => `${id}:pending`));
  }, 120_000);

  it('escalates after a second refusal, recording why, and a later run gives the role its attempts again', async () => {
    const turns = await designTurns();
    const bad = artifactOf(turns[0]!);
    const d = await prepare([asTurn('specAuthor', 1, bad), asTurn('specAuthor', 2, { ...bad, stories: [] })]);
    const summary = await run(d, 'spec');
    expect(summary.phase).toBe('escalated');
    expect(summary.stoppedAt).toContain('escalated: the specAuthor artifact for the spec gate was refused 2 times');
    expect(summary.stoppedAt).toContain('stories: needs at least one story');
    const escalated = recordsOf((await ledgerOf(d).read()).records, RECORD_TYPES.designEscalated);
    expect(escalated.map((r) => r.data.role)).toEqual(['specAuthor']);
    // Nothing was written from a refused artifact: the feature is still the request.
    const view = await readProject(d.root);
    expect(view.ok && view.value.features.find((f) => f.id === DEMO_FEATURE)?.stories).toEqual([]);
    // A run after the escalation goes back to the Spec Author (not to building).
    expect((await run(d, 'spec')).phase).toBe('escalated');
    expect((await designRecords(d)).map((r) => r.data.attempt)).toEqual([1, 2, 1, 2]);
  }, 120_000);

  it('refuses a test list that leaves an AC uncovered, naming it, and sends a rejected gate back to its role with the note', async () => {
    const turns = await designTurns();
    const strategist = artifactOf(turns.find((t) => t.role === 'testStrategist')!) as { items: { ac_id: string }[] };
    const uncovered = { items: strategist.items.filter((i) => i.ac_id !== 'AC-8') };
    const d = await prepare([
      ...turns.filter((t) => t.role !== 'testStrategist'),
      asTurn('testStrategist', 1, uncovered),
      asTurn('testStrategist', 2, strategist),
      asTurn('testStrategist', 1, strategist, 2),
    ]);
    await run(d, 'spec');
    await approve(d, 'spec');
    await run(d, 'design');
    await approve(d, 'design');
    expect((await run(d, 'test_list')).phase).toBe('testListGate');
    const lists = (await designRecords(d)).filter((r) => r.data.role === 'testStrategist');
    expect(lists.map((r) => r.data.outcome)).toEqual(['refused', 'written']);
    expect(lists[0]!.data.problems).toEqual(['AC-8 (story S-2) has no test-list item: add one that tests it.']);

    const view = await readProject(d.root);
    if (!view.ok) throw new Error(view.error.message);
    const rejected = await rejectGate(view.value, ledgerOf(d), {
      feature: DEMO_FEATURE,
      gate: 'test_list',
      approver: DEMO_APPROVER,
      reason: 'Put T8 before T7: urgency first.',
    });
    expect(rejected.ok).toBe(true);
    expect((await run(d, 'test_list')).phase).toBe('testListGate');
    const again = (await designRecords(d)).filter((r) => r.data.role === 'testStrategist').at(-1)!;
    expect(again.data).toMatchObject({ feedback: 'Put T8 before T7: urgency first.', outcome: 'written', attempt: 1, round: 2 });
    const prompt = (await ledgerOf(d).readBlob(again.blobs.find((b) => b.name === 'agent/prompt.md')!.sha256))!.toString();
    expect(prompt).toContain("The Product Owner's note");
    expect(prompt).toContain('Put T8 before T7: urgency first.');
    // The Inbox compares the revision with what was sent back.
    const after = await readProject(d.root);
    if (!after.ok) throw new Error(after.error.message);
    const evidence = await gateEvidence(after.value, ledgerOf(d), { feature: DEMO_FEATURE, gate: 'test_list' });
    const listArtifact = evidence.ok ? evidence.value.artifacts.find((a) => a.name === 'test-list.json') : undefined;
    expect(listArtifact?.sentBack).toMatchObject({ by: DEMO_APPROVER, reason: 'Put T8 before T7: urgency first.' });
    expect(listArtifact?.sentBack?.text).toContain('"T1"');
  }, 180_000);

  it('a feature the scenario has no turns for: the Spec Author declines, the run escalates saying so, and nothing of the demo is written', async () => {
    const d = await prepare(await designTurns());
    const view = await readProject(d.root);
    if (!view.ok) throw new Error(view.error.message);
    const made = await createFeature(view.value, ledgerOf(d), {
      id: 'F-gift',
      title: 'Gift cards',
      request: 'Gift cards that can be topped up and spent at the till.',
      requester: DEMO_APPROVER,
    });
    expect(made.ok).toBe(true);
    const summary = await runFeature({ root: d.root, feature: 'F-gift', until: 'spec', dataDir: d.dataDir, gatePollMs: 50 });
    expect(summary.phase).toBe('escalated');
    expect(summary.stoppedAt).toBe(
      'escalated: no agent for the Spec Author (the scripted scenario has no turn for specAuthor artifact attempt 1 of F-gift): configure one in Settings or write the spec yourself',
    );
    const records = (await ledgerOf(d).read()).records.filter((r) => r.subject.feature === 'F-gift');
    expect(recordsOf(records, RECORD_TYPES.designTurn).map((r) => [r.data.attempt, r.data.outcome])).toEqual([[1, 'refused']]);
    expect(recordsOf(records, RECORD_TYPES.designEscalated)[0]?.data).toMatchObject({ role: 'specAuthor', declined: expect.stringContaining('no turn') });
    // Nothing of the demo's spec: the feature is still its own request, under its own name.
    const after = await readProject(d.root);
    const gift = after.ok ? after.value.features.find((f) => f.id === 'F-gift') : undefined;
    expect(gift).toMatchObject({ name: 'Gift cards', stories: [] });
  }, 120_000);

  it('refuses an artifact.json that is a link, keeping nothing of what it points at', async () => {
    const turns = await designTurns();
    const secret = join(DEMO_REQUEST, 'constraints.md');
    const link = { role: 'specAuthor', step: 'artifact', attempt: 1, run: [`ln -s ${secret} artifact.json`] };
    const d = await prepare([link, ...turns.filter((t) => t.role === 'specAuthor' && t.attempt === 2)]);
    expect((await run(d, 'spec')).phase).toBe('specGate');
    const [refused, written] = await designRecords(d);
    expect(refused?.data).toMatchObject({
      outcome: 'refused',
      problems: ['artifact.json is a link or not a regular file: write the JSON itself into artifact.json'],
    });
    expect(refused?.blobs.map((b) => b.name)).not.toContain('agent/artifact.json');
    expect(written?.data.outcome).toBe('written');
  }, 120_000);
});
