/**
 * The story dossier against a ledger built by hand: every record lands once, under its story,
 * item and cycle (or the feature's own decisions), in words with who did it; the per-item figures
 * are the metrics' own; and the HTML page shows every story, item and decision with agent-written
 * text escaped, loads nothing and runs nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Actor, LedgerRecord } from './ledger';
import { featureDossier, projectDossier, type DossierOutline } from './dossier';
import { dossierHtml, escapeHtml } from './dossier-html';
import { featureMetrics } from './metrics';
import { RECORD_TYPES } from './records';
import { recordMaker } from './records.fixture';

const ADA: Actor = { kind: 'person', id: 'Ada Lovelace <ada@example.com>' };
const HOSTILE = '<script>alert("x")</script>';

const record = recordMaker();

const T1 = { story: 'S-1', item: 'T1', cycle: 'F-1/T1' };
const T2 = { story: 'S-2', item: 'T2', cycle: 'F-1/T2' };
const T2R2 = { story: 'S-2', item: 'T2', cycle: 'F-1/T2#2' };
const sonnet = { host: 'claude-code', model: 'sonnet', inputTokens: 3000, outputTokens: 800, costUsd: 0.05 };

const LEDGER: LedgerRecord[] = [
  record(RECORD_TYPES.gateApproved, 1, { gate: 'spec' }, { gate: 'spec', comment: HOSTILE }, ADA),
  record(RECORD_TYPES.cyclePlanned, 10, T1),
  record(RECORD_TYPES.cycleRed, 20, T1, { turnMs: 4000, testRunMs: 3000, totals: { passed: 1, failed: 1, errored: 0, skipped: 0 } }),
  record(RECORD_TYPES.cycleLocked, 21, T1),
  record(RECORD_TYPES.cycleGreen, 30, T1, { attempt: 1, verdict: 'green', turnMs: 9000, testRunMs: 2000, agent: sonnet }),
  record(RECORD_TYPES.cycleGreened, 31, T1),
  record(RECORD_TYPES.cycleFinished, 32, T1, { status: 'done' }),
  record(RECORD_TYPES.cyclePlanned, 40, T2),
  record(RECORD_TYPES.cycleRed, 41, T2),
  record(RECORD_TYPES.cycleGreen, 50, T2, { attempt: 1, verdict: 'failing', failure: HOSTILE }),
  record(RECORD_TYPES.cycleViolation, 51, T2, { step: 'green', against: 'the lock', files: [{ path: 'test/t2.test.js', kind: 'modified' }] }),
  record(RECORD_TYPES.cycleGreen, 52, T2, { attempt: 2, verdict: 'failing' }),
  record(RECORD_TYPES.cycleFinished, 53, T2, { status: 'escalated', reason: 'the repair budget is spent' }),
  record(RECORD_TYPES.escalationDecided, 60, T2, { decision: 'retry', note: HOSTILE }, ADA),
  record(RECORD_TYPES.cyclePlanned, 70, T2R2),
  record(RECORD_TYPES.cycleGreen, 80, T2R2, { attempt: 1, verdict: 'green' }),
  record(RECORD_TYPES.cycleFinished, 81, T2R2, { status: 'done' }),
  record(RECORD_TYPES.gateApproved, 90, { gate: 'acceptance', story: 'S-1' }, { gate: 'acceptance' }, ADA),
  record(RECORD_TYPES.gateRejected, 91, { gate: 'acceptance', story: 'S-2' }, { gate: 'acceptance', reason: HOSTILE }, ADA),
  // Another feature's record stays out of F-1's dossier.
  { ...record(RECORD_TYPES.cyclePlanned, 95, { item: 'T9', cycle: 'F-2/T9' }), subject: { feature: 'F-2', item: 'T9', cycle: 'F-2/T9' } },
];

const OUTLINE: DossierOutline = {
  id: 'F-1',
  name: `Gift cards ${HOSTILE}`,
  stories: [
    { id: 'S-1', title: 'Redeem a card' },
    { id: 'S-2', title: HOSTILE },
    { id: 'S-3', title: 'Not started' },
  ],
  testList: [
    { id: 'T1', description: 'redeems the balance', acId: 'AC-1', storyId: 'S-1', status: 'green' },
    { id: 'T2', description: HOSTILE, acId: 'AC-2', storyId: 'S-2', status: 'green' },
    { id: 'T3', description: 'never ran', acId: 'AC-3', storyId: 'S-3', status: 'pending' },
  ],
};

describe('the story dossier', () => {
  const d = featureDossier(LEDGER, OUTLINE);

  it('groups story → item → cycle, every record of the feature exactly once', () => {
    expect(d.stories.map((s) => [s.id, s.items.map((i) => i.id)])).toEqual([
      ['S-1', ['T1']],
      ['S-2', ['T2']],
      ['S-3', ['T3']],
    ]);
    const t2 = d.stories[1]!.items[0]!;
    expect(t2.cycles.map((c) => [c.cycle, c.round, c.entries.length])).toEqual([
      ['F-1/T2', 1, 7],
      ['F-1/T2#2', 2, 3],
    ]);
    const all = [...d.entries, ...d.stories.flatMap((s) => [...s.entries, ...s.items.flatMap((i) => [...i.entries, ...i.cycles.flatMap((c) => c.entries)])])];
    const seqs = all.map((e) => e.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(LEDGER.filter((r) => r.subject.feature === 'F-1').map((r) => r.seq));
    expect(d.records).toBe(seqs.length);
    expect(d.entries.map((e) => e.verdict)).toEqual(['approved']);
    expect(d.stories.map((s) => s.entries.map((e) => e.verdict))).toEqual([['approved'], ['rejected'], []]);
    expect(d.stories[2]!.items[0]!.cycles).toEqual([]);
  });

  it('says who did what: the agent role with its host and model, the person, the orchestrator; the run and the usage', () => {
    const [plan, red, lock, green] = d.stories[0]!.items[0]!.cycles[0]!.entries;
    expect([plan!.who, plan!.whoKind]).toEqual(['Orchestrator', 'orchestrator']);
    expect([red!.who, red!.verdict, red!.run]).toEqual(['Navigator', 'RED', { passed: 1, failed: 1, errored: 0, skipped: 0, ms: 3000 }]);
    expect(lock!.verdict).toBe('locked');
    expect([green!.who, green!.agent, green!.verdict, green!.usage]).toEqual([
      'Driver',
      'claude-code / sonnet',
      'GREEN',
      { inputTokens: 3000, outputTokens: 800, costUsd: 0.05 },
    ]);
    const round1 = d.stories[1]!.items[0]!.cycles[0]!.entries;
    expect(round1.map((e) => e.verdict)).toEqual([null, 'RED', 'not green', 'violation', 'not green', 'escalated', 'retry']);
    expect(round1[4]!.says).toMatch(/^Repair 1: /);
    expect(round1[6]).toMatchObject({ who: ADA.id, whoKind: 'person', tone: 'warn' });
  });

  it('takes each item’s and story’s figures from shared/metrics.ts', () => {
    const metrics = featureMetrics(LEDGER, OUTLINE);
    expect(d.stories.flatMap((s) => s.items.map((i) => i.metrics))).toEqual(metrics.items);
    expect(d.stories.map((s) => s.metrics)).toEqual(metrics.stories);
    expect(d.totals).toEqual(metrics.totals);
    expect(d.stories[1]!.items[0]!.metrics!.counts).toMatchObject({ repairs: 1, violations: 1 });
  });

  it('puts items no story claims under a story-less group, and leaves it out when empty', () => {
    const loose = featureDossier(LEDGER, {
      ...OUTLINE,
      stories: [{ id: 'S-1', title: 'Redeem a card' }],
      testList: [OUTLINE.testList[0]!, { ...OUTLINE.testList[1]!, storyId: null }],
    });
    // T2's records still name S-2: the ledger's story claims it.
    expect(loose.stories.map((s) => s.id)).toEqual(['S-1', 'S-2']);
    expect(d.stories.some((s) => s.id === null)).toBe(false);
  });
});

describe('the dossier page', () => {
  const html = dossierHtml(projectDossier(`Shop ${HOSTILE}`, LEDGER, [OUTLINE]), {
    generatedAt: '2026-12-07T10:00:00.000Z',
    head: 'f'.repeat(64),
    records: LEDGER.length,
    chain: { ok: true },
  });

  it('escapes every value: agent-written text is read, never run', () => {
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<[a-z]+[^>]*\son[a-z]+=/i);
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;');
    // Each hostile place: the feature's name, a story title, an item, a comment, a failure, a note, a reason, the project.
    expect(html.split(escapeHtml(HOSTILE)).length - 1).toBeGreaterThanOrEqual(8);
  });

  it('is self-contained: inline style, no script, no link out, a policy that allows nothing else', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/\s(src|srcset)=|<link|<img|<iframe|url\(|@import|https?:\/\//i);
  });

  it('shows every story, item, cycle and decision, each line with its record', () => {
    for (const id of ['S-1', 'S-2', 'S-3', 'T1', 'T2', 'T3', 'F-1/T2#2']) expect(html).toContain(id);
    for (const word of ['approved', 'rejected', 'retry', 'escalated', 'violation', 'GREEN', 'RED']) expect(html).toContain(word);
    for (const r of LEDGER.filter((x) => x.subject.feature === 'F-1')) expect(html).toContain(`id="record-${r.seq}"`);
    expect(html).not.toContain('id="record-20"');
    expect(html).toContain('claude-code / sonnet');
    expect(html).toContain('$0.0500');
    expect(html).toContain('No cycle has run for this item yet.');
  });

  it('says when the chain is broken', () => {
    const broken = dossierHtml(projectDossier('Shop', [], []), {
      generatedAt: '2026-12-07T10:00:00.000Z',
      head: null,
      records: 0,
      chain: { ok: false, brokenAt: 7 },
    });
    expect(broken).toContain('broken</span> at record #7');
    expect(broken).toContain('No feature yet');
  });
});
