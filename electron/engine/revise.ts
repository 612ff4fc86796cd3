/**
 * A rejection is taken up once: when the work a rejected gate sent back starts again, the
 * orchestrator records `gate.revising` (naming the rejection), and the gate is open again — it waits
 * for a decision on the revised work instead of sending the same work back forever. For a story's
 * acceptance the record lists the story's items: each runs a new round from PLAN with the
 * Product Owner's note as guidance (escalations.ts folds it like a retry).
 */
import type { GateName, LedgerRecord } from '../../shared/ledger';
import type { TestItem } from '../../shared/model';
import { RECORD_TYPES, recordOf } from '../../shared/records';
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
}

/** Records `gate.revising` for every gate of `work` that stands rejected; returns the records made. */
export async function takeUpRejections(ledger: Ledger, work: RejectedWork): Promise<LedgerRecord[]> {
  const records = (await ledger.read()).records;
  const folds = foldGates(records);
  const made: LedgerRecord[] = [];
  const refs = work.gates.flatMap((gate): { gate: GateName; story: string | null }[] =>
    gate === 'acceptance' ? (work.stories ?? []).map((story) => ({ gate, story })) : [{ gate, story: null }],
  );
  for (const { gate, story } of refs) {
    const fold = folds.get(gateKey({ feature: work.feature, story, gate }));
    if (fold?.status !== 'rejected' || !fold.rejection) continue;
    const rejection = records.find((r) => r.hash === fold.rejection);
    const data = rejection ? recordOf(rejection, RECORD_TYPES.gateRejected)?.data : undefined;
    const items = story ? (work.items ?? []).filter((item) => item.storyId === story).map((item) => item.id) : [];
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
