/** What a run (or `baton status`) reports: phase, items by status, repairs, violations, escalations, ledger head. */
import { readProject } from '../project';
import { annotateGates } from '../gates';
import type { ProjectView } from '../../shared/model';
import { featureGateAt } from './run-resume';
import type { Ledger } from '../ledger';
import type { LifecycleStateName, RunBlocked, RunSummary } from '../../shared/run';
import { annotateEscalations } from '../gates/escalations';
import { foldAmendments } from '../gates/amendments';
import { evidenceSummary } from '../gates/proof';
import type { LedgerRecord } from '../../shared/ledger';
import { recordOf, RECORD_TYPES } from '../../shared/records';
import { DESIGN_ROLE_NAME, noAgentFor, type DesignRole } from '../../shared/design-artifacts';
import { standingFailure, verificationFailure } from '../gates/feature-verified';
import { LIFECYCLE_VERSION, lifecycleMachine } from '../orchestrator/lifecycle-machine';
import { readSnapshot } from './persisted-machine';
import { StateStore } from './state-store';
import { redactText } from '../core/branches-errors';

export async function summarize(
  root: string,
  featureId: string,
  phase: LifecycleStateName,
  ledger: Ledger,
  blocked: RunBlocked | null = null,
): Promise<RunSummary> {
  const { records } = await ledger.read();
  const read = await readProject(root);
  if (!read.ok) throw new Error(read.error.message);
  const feature = annotateEscalations(read.value, records).features.find((f) => f.id === featureId);
  // The same fold as every gate's evidence summary: statuses, repairs, violations from the ledger.
  const evidence = feature ? evidenceSummary(feature, records) : null;
  // Escalations still waiting for a person; decided ones are in the ledger as `escalation.decided`.
  const escalations = (feature?.escalations ?? []).map((e) => ({ item: e.item, reason: e.reason, record: e.record }));
  const amendment = pendingAmendment(records, featureId);
  const stoppedAt = blocked
    ? `blocked: ${blocked.message}`
    : phase === 'done'
      ? 'done'
      : phase === 'escalated'
        ? escalations.length
          ? `escalated: ${escalations.map((e) => `${e.item} (${e.reason})`).join('; ')}. Decide in the Inbox or with \`baton resolve ${root} --feature ${featureId} --item ${escalations[0]!.item} --decision retry|skip|abandon\`, then run again`
          : (mergedSuiteFailure(records, featureId) ??
            designEscalation(records, featureId) ??
            (await failedStep(root, featureId)) ??
            'escalated: every escalation is decided; run again to go on')
        : (phase === 'acceptance' || phase === 'deployGate') && amendment
          ? `waiting at the ${phase === 'acceptance' ? 'acceptance' : 'deploy'} gate, which cannot be approved yet: ${amendment}`
          : phase.endsWith('Gate') || phase === 'acceptance'
            ? ((await heldBack(read.value, records, featureId, phase)) ??
              `waiting at ${phase === 'acceptance' ? 'the acceptance gate' : `the ${phase.replace('Gate', '')} gate`}: approve it in the Inbox or with \`baton approve\``)
            : phase;
  return {
    project: root,
    feature: featureId,
    phase,
    items: { total: evidence?.testItems ?? 0, byStatus: evidence?.byStatus ?? {} },
    // A Baton feature's ledger always has these counts.
    repairs: evidence?.repairs ?? 0,
    violations: evidence?.violations ?? 0,
    rejectedRed: evidence?.rejectedRed ?? 0,
    escalations,
    blocked,
    ledgerHead: records.at(-1)?.hash ?? null,
    stoppedAt,
  };
}

/**
 * A feature-level gate the run waits at that cannot be approved yet (its evidence missing, an
 * earlier gate withdrawn): what holds it back, in the words the Inbox shows, never "approve it".
 */
async function heldBack(view: ProjectView, records: readonly LedgerRecord[], feature: string, phase: LifecycleStateName): Promise<string | null> {
  const gate = featureGateAt(phase);
  if (!gate) return null;
  const judged = (await annotateGates(view, records)).features.find((f) => f.id === feature)?.gates.find((g) => g.name === gate && g.story === null);
  const block = judged?.blockedBy;
  // The approval check's message opens with "Cannot approve the … gate of F:", which the sentence already says.
  return block && block.kind !== 'read-only'
    ? `waiting at the ${gate} gate, which cannot be approved yet: ${block.message.replace(/^Cannot approve [^:]*: /, '')}`
    : null;
}

/** A test amendment of the feature that waits for a person's decision, as the next thing to do; null when none waits. */
function pendingAmendment(records: readonly LedgerRecord[], feature: string): string | null {
  const pending = foldAmendments(records).find((s) => s.record.subject.feature === feature && s.status === 'pending');
  if (!pending) return null;
  const item = pending.record.subject.item;
  return `a test amendment of ${item} waits for a decision (\`baton amend list\`, then \`baton amend approve|reject --amendment ${pending.record.hash.slice(0, 12)}\`, or the Inbox)`;
}

/** The merged feature's failed verification, when it is what stopped the run (engine/verify-feature.ts). */
function mergedSuiteFailure(records: readonly LedgerRecord[], feature: string): string | null {
  const failed = standingFailure(records, feature);
  return failed ? `stopped after acceptance: ${verificationFailure(failed)}` : null;
}

/** A design role's second refusal, when it is the feature's last word: what a person must do next. */
function designEscalation(records: readonly LedgerRecord[], feature: string): string | null {
  const last = records.filter((r) => r.subject?.feature === feature).at(-1);
  const escalated = recordOf(last, RECORD_TYPES.designEscalated);
  if (!escalated) return null;
  const { role, gate, attempts, problems, declined } = escalated.data;
  if (declined) return `escalated: ${noAgentFor(DESIGN_ROLE_NAME[role as DesignRole] ?? role, gate, declined)}`;
  return `escalated: the ${role} artifact for the ${gate} gate was refused ${attempts} times (${problems.join(' ')}). Write the files by hand or run again to give the role two more attempts`;
}

/**
 * A lifecycle step that threw (a gate's follow-up such as the merge, the deploy or the promotion, or a
 * work step) escalates the feature with no item to decide: its own words, from the persisted
 * snapshot (every URL's password and `password=` value redacted: the summary reaches the UI and the
 * webhook), so the summary never says "every escalation is decided" over an error. Null otherwise.
 */
async function failedStep(root: string, featureId: string): Promise<string | null> {
  const saved = await readSnapshot(StateStore.forProject(root, featureId), 'lifecycle', lifecycleMachine, LIFECYCLE_VERSION).catch(() => null);
  const context = saved?.context as { failedStep?: string | null; reason?: string | null } | undefined;
  if (!context?.failedStep || !context.reason) return null;
  return `escalated: ${redactText(context.reason).replace(/\.?$/, '')}. Fix what it names, then run again: the run resumes at that step`;
}
