/**
 * A rejection is taken up once: when the work a rejected gate sent back starts again, the
 * orchestrator records `gate.revising` (naming the rejection), and the gate is open again — it waits
 * for a decision on the revised work instead of sending the same work back forever. For a story's
 * acceptance the record lists the story's items: each runs a new round from PLAN with the
 * Product Owner's note as guidance (escalations.ts folds it like a retry).
 */
import type { GateName, LedgerRecord } from '../../shared/ledger';
import type { TestItem } from '../../shared/model';
import { RECORD_TYPES, recordOf, recordsOf } from '../../shared/records';
import { foldGates, gateKey } from '../gates';
import type { Ledger } from '../ledger';

export interface RejectedWork {
  readonly feature: string;
  /** The gates whose rejections this work answers. */
  readonly gates: readonly GateName[];
  /** The feature's items (for acceptance: a story's items run again). */
  readonly items?: readonly TestItem[];
  /** The feature's story ids (acceptance is decided per story). */
  readonly stories?: readonly string[];
  /** Removes a discarded story's experiment pair (called after `story.discarded` is recorded). */
  readonly drop?: (story: string) => Promise<void>;
}

/** Records `gate.revising` (or, for a story rejected with `discard`, `story.discarded`) for every gate of `work` that stands rejected; returns the records made. */
export async function takeUpRejections(ledger: Ledger, work: RejectedWork): Promise<LedgerRecord[]> {
  const records = (await ledger.read()).records;
  const folds = foldGates(records);
  const made: LedgerRecord[] = [];
  // A discarded story's rejection stays in force (the story is gone, not waiting): taken up once.
  const taken = new Set(recordsOf(records, RECORD_TYPES.storyDiscarded).map((r) => r.data.rejection));
  const refs = work.gates.flatMap((gate): { gate: GateName; story: string | null }[] =>
    gate === 'acceptance' ? (work.stories ?? []).map((story) => ({ gate, story })) : [{ gate, story: null }],
  );
  for (const { gate, story } of refs) {
    const fold = folds.get(gateKey({ feature: work.feature, story, gate }));
    if (fold?.status !== 'rejected' || !fold.rejection || taken.has(fold.rejection)) continue;
    const rejection = records.find((r) => r.hash === fold.rejection);
    const data = rejection ? recordOf(rejection, RECORD_TYPES.gateRejected)?.data : undefined;
    const items = story ? (work.items ?? []).filter((item) => item.storyId === story).map((item) => item.id) : [];
    if (story && data?.discard) {
      // Dropped, not revised: its items are set aside (escalations.ts folds it like a skip) and its pair goes.
      made.push(
        await ledger.append({
          type: RECORD_TYPES.storyDiscarded,
          actor: { kind: 'orchestrator', id: 'baton' },
          subject: { feature: work.feature, story, gate },
          data: { story, rejection: fold.rejection, by: data.approver, note: fold.note, items },
        }),
      );
      await work.drop?.(story);
      continue;
    }
    made.push(
      await ledger.append({
        type: RECORD_TYPES.gateRevising,
        actor: { kind: 'orchestrator', id: 'baton' },
        subject: { feature: work.feature, ...(story ? { story } : {}), gate },
        data: { gate, rejection: fold.rejection, by: data?.approver ?? rejection?.actor.id ?? 'unknown', note: fold.note, items },
      }),
    );
  }
  return made;
}
