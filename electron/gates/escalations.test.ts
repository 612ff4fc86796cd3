/**
 * Escalations folded from a real ledger, and a person's decisions on them: fail closed (who, an
 * open escalation, a reason to abandon), one decision per escalation even when two race.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectView } from '../../shared/model';
import { readProject } from '../project';
import { removeDir } from '../project/temp-project.fixture';
import { annotateEscalations, cycleIdFor, decideEscalation, escalationsOf, foldEscalations, roundOfCycle } from './escalations';
import { makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';
import { sampleData } from '../../shared/records.fixture';

let project: TestProject | undefined;
afterEach(async () => {
  if (project) await removeDir(project.root);
  project = undefined;
});

async function escalate(item: string, round = 1, reason = 'repair budget spent') {
  return project!.ledger.append({
    type: 'cycle.finished',
    actor: { kind: 'orchestrator', id: 'baton' },
    subject: { feature: 'F-1', story: 'S-1', item, cycle: cycleIdFor('F-1', item, round) },
    data: { key: 'finished', status: 'escalated', reason, repairs: 3, violations: 1, rejectedRed: 0, round },
  });
}

async function view(): Promise<ProjectView> {
  const read = await readProject(project!.root);
  if (!read.ok) throw new Error(read.error.message);
  return annotateEscalations(read.value, await project!.records());
}

describe('cycle ids and rounds', () => {
  it('round 1 keeps the plain id; later rounds carry #n', () => {
    expect(cycleIdFor('F-1', 'T1', 1)).toBe('F-1/T1');
    expect(cycleIdFor('F-1', 'T1', 3)).toBe('F-1/T1#3');
    expect(roundOfCycle('F-1/T1')).toBe(1);
    expect(roundOfCycle('F-1/T1#3')).toBe(3);
    expect(roundOfCycle(undefined)).toBe(1);
  });
});

describe('escalations from the ledger', () => {
  it('an escalated cycle is open until a person decides; retry moves the item to its next round', async () => {
    const p = (project = await makeBatonProject());
    expect((await view()).features[0]!.escalations).toEqual([]);
    // What the cycle recorded: two failing GREENs (one repair) and one turn that changed a locked
    // file. Its finished record carries the machine's budget (3: the violation used a round), never shown.
    const cycle = { feature: 'F-1', story: 'S-1', item: 'T2', cycle: cycleIdFor('F-1', 'T2', 1) };
    const orchestrator = { kind: 'orchestrator' as const, id: 'baton' };
    for (const attempt of [1, 2])
      await p.ledger.append({
        type: 'cycle.green',
        actor: orchestrator,
        subject: cycle,
        data: sampleData('cycle.green', { key: `green:${attempt}`, attempt, verdict: 'failing' }),
      });
    await p.ledger.append({ type: 'cycle.violation', actor: orchestrator, subject: cycle, data: sampleData('cycle.violation') });
    const finished = await escalate('T2');
    let open = (await view()).features[0]!.escalations;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ item: 'T2', story: 'S-1', round: 1, reason: 'repair budget spent', record: finished.hash, repairs: 1, violations: 1 });

    const decided = await decideEscalation(await view(), p.ledger, {
      feature: 'F-1',
      item: 'T2',
      decision: 'retry',
      note: 'Use integer cents',
      approver: PERSON,
    });
    expect(decided.ok).toBe(true);
    if (!decided.ok) return;
    expect(decided.value).toMatchObject({
      type: 'escalation.decided',
      actor: { kind: 'person', id: PERSON },
      subject: { feature: 'F-1', item: 'T2', cycle: 'F-1/T2' },
    });
    expect(decided.value.data).toMatchObject({ decision: 'retry', round: 1, note: 'Use integer cents', escalation: finished.hash });
    expect((await view()).features[0]!.escalations).toEqual([]);
    const state = escalationsOf(foldEscalations(await p.records()), 'F-1', 'T2');
    expect(state).toMatchObject({ round: 2, open: null, decided: { decision: 'retry', note: 'Use integer cents', by: PERSON } });

    // Round 2 escalates again: a new open escalation, decided separately.
    await escalate('T2', 2, 'second try failed');
    open = (await view()).features[0]!.escalations;
    expect(open).toMatchObject([{ item: 'T2', round: 2, reason: 'second try failed' }]);
    const skipped = await decideEscalation(await view(), p.ledger, { feature: 'F-1', item: 'T2', decision: 'skip', approver: PERSON });
    expect(skipped.ok && skipped.value.subject.cycle).toBe('F-1/T2#2');
    expect(escalationsOf(foldEscalations(await p.records()), 'F-1', 'T2')).toMatchObject({ round: 2, open: null, decided: { decision: 'skip', round: 2 } });
  });

  it('refuses a decision without a person, on an item that is not escalated, a second decision, and an abandon without a reason', async () => {
    const p = (project = await makeBatonProject());
    await escalate('T2');
    const current = await view();
    const codeOf = async (request: Parameters<typeof decideEscalation>[2]) => {
      const result = await decideEscalation(current, p.ledger, request);
      return result.ok ? 'ok' : result.error.code;
    };
    expect(await codeOf({ feature: 'F-1', item: 'T2', decision: 'retry', approver: '  ' })).toBe('no-identity');
    expect(await codeOf({ feature: 'F-1', item: 'T1', decision: 'retry', approver: PERSON })).toBe('not-escalated');
    expect(await codeOf({ feature: 'F-9', item: 'T2', decision: 'retry', approver: PERSON })).toBe('not-found');
    expect(await codeOf({ feature: 'F-1', item: 'T2', decision: 'abandon', note: ' ', approver: PERSON })).toBe('no-reason');
    expect(await codeOf({ feature: 'F-1', item: 'T2', decision: 'nonsense' as never, approver: PERSON })).toBe('invalid-request');
    const before = (await p.records()).length;
    expect(before).toBe(1); // nothing refused was written

    // Two people decide at once: exactly one decision lands.
    const results = await Promise.all([
      decideEscalation(current, p.ledger, { feature: 'F-1', item: 'T2', decision: 'retry', approver: PERSON }),
      decideEscalation(current, p.ledger, { feature: 'F-1', item: 'T2', decision: 'skip', approver: 'Grace <grace@example.com>' }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ error: { code: 'not-escalated' } });
    expect((await p.records()).filter((r) => r.type === 'escalation.decided')).toHaveLength(1);
  });

  it('a read-only view decides nothing', async () => {
    const p = (project = await makeBatonProject());
    await escalate('T2');
    const result = await decideEscalation({ ...(await view()), readOnly: true }, p.ledger, { feature: 'F-1', item: 'T2', decision: 'retry', approver: PERSON });
    expect(result).toMatchObject({ ok: false, error: { code: 'read-only' } });
  });
});
