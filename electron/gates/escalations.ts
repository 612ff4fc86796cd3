/**
 * Escalations: a cycle the orchestrator gave up on (`cycle.finished` with status `escalated`) waits
 * for a person, who decides with an `escalation.decided` record: `retry` (the item's next round
 * starts again from PLAN, with the person's note in the agents' prompts), `skip` (the item is set
 * aside and the feature goes on without it) or `abandon` (the feature stops). An approved test
 * amendment (amendments.ts) counts as a `retry` of the round whose lock it amends, and so does a
 * story sent back at acceptance (`gate.revising`) for each of its items. Folded from the
 * ledger alone, so the CLI, the inbox and the orchestrator all agree.
 */
import { type LedgerRecord } from '../../shared/ledger';
import { countRecords } from '../../shared/cycle-counts';
import { RECORD_TYPES, recordOf, type TypedRecord } from '../../shared/records';
import { ESCALATION_DECISIONS, type EscalationDecision, type EscalationView, type ProjectView } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import { writableProject } from '../../shared/read-only';
import type { Ledger } from '../ledger';

export interface EscalationDecisionRecord {
  readonly round: number;
  readonly decision: EscalationDecision;
  readonly note: string | null;
  readonly by: string;
  readonly record: string;
  /** An approved test amendment (its record's hash): the item's next round runs against the amended tests. */
  readonly amendment: string | null;
}

export interface ItemEscalations {
  /** The round the item's next cycle runs as: 1 + the number of `retry` decisions. */
  readonly round: number;
  /** The latest escalation, if no one has decided it yet. */
  readonly open: EscalationView | null;
  /** The latest decision, if any. */
  readonly decided: EscalationDecisionRecord | null;
}

const key = (feature: string, item: string) => JSON.stringify([feature, item]);

/** The round a cycle id names: `F/T` is round 1, `F/T#3` round 3. */
export function roundOfCycle(cycle: string | undefined): number {
  const match = /#(\d+)$/.exec(cycle ?? '');
  return match ? Number(match[1]) : 1;
}

export function cycleIdFor(feature: string, item: string, round: number): string {
  return round <= 1 ? `${feature}/${item}` : `${feature}/${item}#${round}`;
}

/** Per feature and item: its current round, its open escalation, its latest decision. */
export function foldEscalations(records: readonly LedgerRecord[]): Map<string, ItemEscalations> {
  const escalated = new Map<string, Map<number, FinishedRecord>>();
  const decisions = new Map<string, EscalationDecisionRecord[]>();
  const byCycle = new Map<string, LedgerRecord[]>();
  for (const r of records) {
    const { feature, item } = r.subject;
    if (r.subject.cycle) {
      const mine = byCycle.get(r.subject.cycle);
      if (mine) mine.push(r);
      else byCycle.set(r.subject.cycle, [r]);
    }
    // A story sent back at acceptance (each of its items runs its next round with the note) or
    // discarded there (its items set aside): one decision per item, made by the orchestrator (engine/revise.ts).
    const story = recordOf(r, RECORD_TYPES.gateRevising) ?? recordOf(r, RECORD_TYPES.storyDiscarded);
    if (story && feature) {
      const decision = r.type === RECORD_TYPES.gateRevising ? 'retry' : 'skip';
      for (const each of story.data.items) {
        const list = decisions.get(key(feature, each)) ?? [];
        const round = 1 + list.filter((d) => d.decision === 'retry').length;
        list.push({ round, decision, note: story.data.note, by: story.data.by, record: r.hash, amendment: null });
        decisions.set(key(feature, each), list);
      }
      continue;
    }
    if (!feature || !item) continue;
    const finished = recordOf(r, RECORD_TYPES.cycleFinished);
    if (finished?.data.status === 'escalated') {
      const byRound = escalated.get(key(feature, item)) ?? new Map<number, FinishedRecord>();
      byRound.set(roundOfCycle(r.subject.cycle), finished);
      escalated.set(key(feature, item), byRound);
      continue;
    }
    const decided = recordOf(r, RECORD_TYPES.escalationDecided);
    if (decided) {
      const list = decisions.get(key(feature, item)) ?? [];
      list.push({
        round: decided.data.round ?? 1,
        decision: decided.data.decision,
        note: decided.data.note ?? null,
        by: r.actor.id,
        record: r.hash,
        amendment: null,
      });
      decisions.set(key(feature, item), list);
    }
    // An approved amendment decides the round whose lock it amends, and starts the next one (like a retry).
    const amended = recordOf(r, RECORD_TYPES.amendmentDecided);
    if (amended?.data.decision === 'approved') {
      const list = decisions.get(key(feature, item)) ?? [];
      list.push({
        round: roundOfCycle(r.subject.cycle),
        decision: 'retry',
        note: amended.data.note,
        by: r.actor.id,
        record: r.hash,
        amendment: amended.data.amendment,
      });
      decisions.set(key(feature, item), list);
    }
  }
  const out = new Map<string, ItemEscalations>();
  for (const k of new Set([...escalated.keys(), ...decisions.keys()])) {
    const made = decisions.get(k) ?? [];
    const round = 1 + made.filter((d) => d.decision === 'retry').length;
    const decided = made.at(-1) ?? null;
    const byRound = escalated.get(k) ?? new Map<number, FinishedRecord>();
    const latestRound = Math.max(0, ...byRound.keys());
    const latest = byRound.get(latestRound);
    const open = latest && !made.some((d) => d.round === latestRound) ? viewOf(latest, latestRound, byCycle.get(latest.subject.cycle ?? '') ?? []) : null;
    out.set(k, { round, open, decided });
  }
  return out;
}

export function escalationsOf(fold: Map<string, ItemEscalations>, feature: string, item: string): ItemEscalations {
  return fold.get(key(feature, item)) ?? { round: 1, open: null, decided: null };
}

type FinishedRecord = TypedRecord<typeof RECORD_TYPES.cycleFinished>;

/** `cycle`: the escalated cycle's records, counted with the one definition (shared/cycle-counts.ts), not the machine's budget. */
function viewOf(record: FinishedRecord, round: number, cycle: readonly LedgerRecord[]): EscalationView {
  const d = record.data;
  const counts = countRecords(cycle);
  return {
    item: record.subject.item!,
    story: record.subject.story ?? null,
    round,
    reason: d.reason ?? 'The cycle escalated.',
    record: record.hash,
    at: record.at,
    repairs: counts.repairs,
    violations: counts.violations,
    rejectedRed: counts.rejectedRed,
  };
}

/** Fills each feature's `escalations` (open ones, oldest first) from the ledger. */
export function annotateEscalations(view: ProjectView, records: readonly LedgerRecord[]): ProjectView {
  const fold = foldEscalations(records);
  if (fold.size === 0) return view;
  return {
    ...view,
    features: view.features.map((f) => ({
      ...f,
      escalations: f.testList
        .map((item) => escalationsOf(fold, f.id, item.id).open)
        .filter((e): e is EscalationView => e !== null)
        .sort((a, b) => a.at.localeCompare(b.at)),
    })),
  };
}

export interface DecideEscalationRequest {
  readonly feature: string;
  readonly item: string;
  readonly decision: EscalationDecision;
  readonly note?: string | undefined;
  readonly approver: string;
}

/**
 * Records a person's decision on an open escalation, fail closed: a writable Baton project, a
 * named person, an escalation that is open right now (checked inside the ledger's lock, so two
 * people deciding at once give one decision and one refusal), and a reason to abandon.
 */
export async function decideEscalation(view: ProjectView, ledger: Ledger, req: DecideEscalationRequest): Promise<Result<LedgerRecord>> {
  const what = `the escalation of ${req.item} in ${req.feature}`;
  const writable = writableProject(view, 'escalations');
  if (!writable.ok) return writable;
  if (req.approver.trim() === '')
    return err('no-identity', `A decision on ${what} must say who makes it: give your name and email, e.g. "Ada Lovelace <ada@example.com>".`);
  if (!(ESCALATION_DECISIONS as readonly string[]).includes(req.decision))
    return err('invalid-request', `"${req.decision}" is not a decision on an escalation: use ${ESCALATION_DECISIONS.join(', ')}.`);
  const note = req.note?.trim() ?? '';
  if (req.decision === 'abandon' && note === '')
    return err('no-reason', `To abandon ${req.feature} over ${req.item}, say why: the reason is recorded with the decision.`);
  const feature = view.features.find((f) => f.id === req.feature);
  if (!feature) return err('not-found', `No feature "${req.feature}" in ${view.root}. Features: ${view.features.map((f) => f.id).join(', ') || 'none'}.`);
  try {
    return await ledger.transaction(async (tx) => {
      const open = escalationsOf(foldEscalations(tx.records), req.feature, req.item).open;
      if (!open)
        return err(
          'not-escalated',
          `${req.item} in ${req.feature} has no escalation waiting for a decision (it was never escalated, or someone already decided). Reload to see its state.`,
        );
      const record = await tx.append({
        type: RECORD_TYPES.escalationDecided,
        actor: { kind: 'person', id: req.approver.trim() },
        subject: { feature: req.feature, ...(open.story ? { story: open.story } : {}), item: req.item, cycle: cycleIdFor(req.feature, req.item, open.round) },
        data: { decision: req.decision, round: open.round, note: note === '' ? null : note, escalation: open.record },
        blobs: [],
      });
      return ok(record);
    });
  } catch (error) {
    return err(
      'ledger-error',
      `The decision was not recorded: the ledger could not be written (${error instanceof Error ? error.message : String(error)}). Nothing changed; try again.`,
    );
  }
}
