/** What is new to decide since the last look (needs-you.ts): only entries that became decidable, said plainly. */
import { describe, expect, it } from 'vitest';
import type { EscalationView, Feature, Gate, ProjectView } from '../../../shared/model';
import { inboxEntries } from '../lib/inbox-model';
import type { RunStateView, RunSummary } from '../../../shared/run';
import { IDLE_RUN } from '../../../shared/run-view';
import { decidableKeys, newlyDecidable, runEnded } from './needs-you';

const gate = (name: string, blockedBy: Gate['blockedBy'] = null, story: string | null = null): Gate => ({
  name,
  status: 'open',
  approver: null,
  approvedAt: null,
  artifacts: [],
  story,
  drift: [],
  note: null,
  pendingSince: '2026-12-01T10:00:00.000Z',
  blockedBy,
});
const earlier = (g: string): Gate['blockedBy'] => ({ kind: 'earlier-gate', gate: g, message: `the ${g} gate comes first` });
const escalation: EscalationView = {
  item: 'T3',
  story: 'S-1',
  round: 1,
  reason: 'GREEN failed after 3 repairs',
  record: 'a'.repeat(64),
  at: '2026-12-01T11:00:00.000Z',
  repairs: 3,
  violations: 0,
  rejectedRed: 0,
};
const view = (gates: Gate[], escalations: EscalationView[] = []): ProjectView => ({
  root: '/p',
  name: 'p',
  layout: 'baton',
  artifactRoot: '/p/.baton',
  readOnly: false,
  bundle: null,
  problems: [],
  features: [
    {
      id: 'F-1',
      name: 'Gift cards',
      description: '',
      stories: [],
      testList: [],
      gates,
      cycles: 0,
      cycleRuns: [],
      escalations,
      amendments: [],
      lockedTests: [],
      runBlock: null,
    } as Feature,
  ],
});

describe('newlyDecidable', () => {
  it('names each entry that became decidable since the last look, and none that already was or still waits', () => {
    const before = decidableKeys(inboxEntries(view([gate('spec'), gate('design', earlier('spec'))])));
    // The spec was approved elsewhere: the design is ready now, and T3 escalated.
    const now = inboxEntries(view([gate('design'), gate('test_list', earlier('design'))], [escalation]));
    const news = newlyDecidable(before, now);
    expect(news.map((n) => [n.key, n.title, n.body])).toEqual([
      ['escalation-F-1-T3', 'T3 escalated', 'Gift cards: GREEN failed after 3 repairs'],
      ['F-1-design', 'The design gate is ready to decide', 'Gift cards: open it in the Inbox.'],
    ]);
    // Looked at again with nothing new: nothing to say.
    expect(newlyDecidable(decidableKeys(now), now)).toEqual([]);
  });

  it('says which story a story gate is for, and the test list with a space', () => {
    const news = newlyDecidable(new Set(), inboxEntries(view([gate('acceptance', null, 'S-2'), gate('test_list')])));
    expect(news.map((n) => [n.title, n.body])).toEqual(
      expect.arrayContaining([
        ['The acceptance gate is ready to decide', 'Gift cards (S-2): open it in the Inbox.'],
        ['The test list gate is ready to decide', 'Gift cards: open it in the Inbox.'],
      ]),
    );
  });
});

describe('runEnded', () => {
  const running: RunStateView = { ...IDLE_RUN, running: true, outcome: 'running', feature: 'F-1' };
  const summary = (phase: RunSummary['phase']) => ({ feature: 'F-1', phase, stoppedAt: `stopped: ${phase}` }) as RunSummary;
  const ended = (outcome: RunStateView['outcome'], extra: Partial<RunStateView> = {}): RunStateView => ({ ...running, running: false, outcome, ...extra });

  it('says a followed run that finished the feature, or failed', () => {
    expect(runEnded(running, ended('finished', { summary: summary('done') }))).toEqual({ title: 'F-1 is done', body: 'stopped: done' });
    expect(runEnded(running, ended('failed', { message: 'the branch server did not start' }))).toEqual({
      title: 'The run of F-1 failed',
      body: 'the branch server did not start',
    });
  });

  it('leaves to the Inbox a run that stopped at a gate, escalated or blocked, and says nothing of one a person stopped or one still going', () => {
    expect(runEnded(running, ended('finished', { summary: summary('acceptance') }))).toBeNull();
    for (const outcome of ['escalated', 'blocked', 'stopped'] as const) expect(runEnded(running, ended(outcome))).toBeNull();
    expect(runEnded(running, running)).toBeNull();
    expect(runEnded(ended('failed'), ended('failed'))).toBeNull();
  });
});
