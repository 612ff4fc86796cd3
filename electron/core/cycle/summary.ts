/** What a run (or `baton status`) reports: phase, items by status, repairs, violations, escalations, ledger head. */
import { readProject } from '../../project';
import type { Ledger } from '../../ledger';
import type { LifecycleStateName, RunSummary } from '../../../shared/run';
import { annotateItems } from '../../gates/annotate-items';
import { annotateEscalations } from '../../gates/escalations';
import { CYCLE_RECORDS } from './records';

export async function summarize(root: string, featureId: string, phase: LifecycleStateName, ledger: Ledger): Promise<RunSummary> {
  const { records } = await ledger.read();
  const read = await readProject(root);
  if (!read.ok) throw new Error(read.error.message);
  const feature = annotateEscalations(annotateItems(read.value, records), records).features.find((f) => f.id === featureId);
  const byStatus: Record<string, number> = {};
  for (const item of feature?.testList ?? []) byStatus[item.status] = (byStatus[item.status] ?? 0) + 1;
  const mine = records.filter((r) => r.subject.feature === featureId);
  // Every round of every item counts (a retried item has one finished record per round).
  const finished = mine.filter((r) => r.type === CYCLE_RECORDS.finished);
  const count = (key: 'violations' | 'rejectedRed') => finished.reduce((n, r) => n + Number(r.data[key] ?? 0), 0);
  // A repair is a GREEN attempt that failed and sent its output back to the Driver.
  const repairs = mine.filter((r) => r.type === CYCLE_RECORDS.green && r.data.verdict === 'failing').length;
  // Escalations still waiting for a person; decided ones are in the ledger as `escalation.decided`.
  const escalations = (feature?.escalations ?? []).map((e) => ({ item: e.item, reason: e.reason, record: e.record }));
  const stoppedAt =
    phase === 'done'
      ? 'done'
      : phase === 'escalated'
        ? escalations.length
          ? `escalated: ${escalations.map((e) => `${e.item} (${e.reason})`).join('; ')}. Decide in the Inbox or with \`baton resolve ${root} --feature ${featureId} --item ${escalations[0]!.item} --decision retry|skip|abandon\`, then run again`
          : 'escalated: every escalation is decided; run again to go on'
        : phase.endsWith('Gate') || phase === 'acceptance' ? `waiting at ${phase === 'acceptance' ? 'the acceptance gate' : `the ${phase.replace('Gate', '')} gate`}: approve it in the Inbox or with \`baton approve\`` : phase;
  return {
    project: root,
    feature: featureId,
    phase,
    items: { total: feature?.testList.length ?? 0, byStatus },
    repairs,
    violations: count('violations'),
    rejectedRed: count('rejectedRed'),
    escalations,
    ledgerHead: records.at(-1)?.hash ?? null,
    stoppedAt,
  };
}
