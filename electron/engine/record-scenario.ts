/**
 * Record and replay: every turn's verdict record keeps what the turn changed (`kept/<path>` blobs),
 * what it tampered with (`tampered/<path>` on a violation), a review's decision and a strengthening
 * round's added tests (`strengthened/<path>`) — enough to turn
 * a recorded run into a scripted scenario that plays the same turns again. Replaying it through
 * the scripted adapter on the same starting project gives the same verdicts: the orchestrator
 * decides from its own runs, and the turns are the same files.
 */
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import type { LedgerRecord } from '../../shared/ledger';
import { roundOfCycle } from '../gates/escalations';
import type { Ledger } from '../ledger';
import type { Scenario, ScriptedTurn } from '../agents/scenario';

/** The content a replay writes where a turn wrote outside its scope (not kept, so not recorded): it is reverted again. */
const REVERTED = '(written outside the role’s scope in the recorded run; Baton reverted it)\n';

type Reader = (sha256: string) => Promise<Buffer | null>;

async function blobOf(read: Reader, record: LedgerRecord, name: string): Promise<string | null> {
  const ref = record.blobs.find((b) => b.name === name);
  if (!ref) return null;
  const content = await read(ref.sha256);
  return content ? content.toString('utf8') : null;
}

/** The scenario a recorded run's ledger plays back: one turn per recorded working step and review. */
export async function scenarioFromLedger(ledger: Ledger, feature?: string): Promise<Scenario> {
  const { records } = await ledger.read();
  const read: Reader = (sha) => ledger.readBlob(sha);
  const mine = records.filter((r) => !feature || r.subject.feature === feature);
  const features = [...new Set(mine.map((r) => r.subject.feature).filter((f): f is string => typeof f === 'string'))];
  const turns: ScriptedTurn[] = [];
  const steps = [
    { type: RECORD_TYPES.cycleRed, role: 'navigator', step: 'red' },
    { type: RECORD_TYPES.cycleGreen, role: 'driver', step: 'green' },
    { type: RECORD_TYPES.cycleRefactored, role: 'driver', step: 'refactor' },
  ] as const;
  const violations = recordsOf(mine, RECORD_TYPES.cycleViolation);
  for (const { type, role, step } of steps) {
    for (const record of recordsOf(mine, type)) {
      const item = record.subject.item;
      if (typeof item !== 'string') continue;
      const round = roundOfCycle(typeof record.subject.cycle === 'string' ? record.subject.cycle : undefined);
      const write: Record<string, string> = {};
      const remove: string[] = [];
      for (const change of record.data.kept) {
        if (change.kind === 'renamed' && change.from) remove.push(change.from);
        if (change.kind === 'deleted') remove.push(change.path);
        else write[change.path] = (await blobOf(read, record, `kept/${change.path}`)) ?? '';
      }
      for (const o of record.data.outOfScope) if (o.kind !== 'deleted' && !(o.path in write)) write[o.path] = REVERTED;
      // What the same turn did to locked files: written again, caught again.
      const caught = violations.find(
        (v) => v.subject.item === item && v.subject.cycle === record.subject.cycle && v.data.step === step && v.data.attempt === record.data.attempt,
      );
      for (const file of caught?.data.files ?? []) {
        const content = await blobOf(read, caught!, `tampered/${file.path}`);
        if (file.kind === 'deleted' || content === null) remove.push(file.path);
        else write[file.path] = content;
      }
      turns.push({
        role,
        step,
        item,
        attempt: record.data.attempt,
        ...(round > 1 ? { round } : {}),
        ...(Object.keys(write).length ? { write } : {}),
        ...(remove.length ? { delete: remove } : {}),
        ...(record.data.agentExitCode !== null && record.data.agentExitCode !== 0 ? { exitCode: Math.min(255, Math.max(0, record.data.agentExitCode)) } : {}),
      });
    }
  }
  for (const record of recordsOf(mine, RECORD_TYPES.cycleReviewed)) {
    const item = record.subject.item;
    if (typeof item !== 'string') continue;
    const round = roundOfCycle(typeof record.subject.cycle === 'string' ? record.subject.cycle : undefined);
    turns.push({
      role: 'navigator',
      step: 'review',
      item,
      attempt: record.data.attempt,
      ...(round > 1 ? { round } : {}),
      decision: record.data.decision,
      ...(record.data.note ? { note: record.data.note } : {}),
    });
  }
  // A strengthening round's added tests (mutation/strengthen.ts), written again on replay.
  for (const record of recordsOf(mine, RECORD_TYPES.cycleMutated)) {
    const item = record.subject.item;
    const round = record.data.strengthened;
    if (typeof item !== 'string' || !round?.files.length) continue;
    const write: Record<string, string> = {};
    for (const f of round.files) write[f.path] = (await blobOf(read, record, `strengthened/${f.path}`)) ?? '';
    const cycleRound = roundOfCycle(typeof record.subject.cycle === 'string' ? record.subject.cycle : undefined);
    turns.push({ role: 'navigator', step: 'strengthen', item, attempt: 1, ...(cycleRound > 1 ? { round: cycleRound } : {}), write });
  }
  return {
    description: `Recorded from the ledger of ${features.join(', ') || 'no feature'} (${turns.length} turns): replay with \`baton replay\`.`,
    turns,
  };
}
