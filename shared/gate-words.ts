/** Who decided a gate and when, as `baton gates` and `baton inspect` say it: the same words in both. */
import { proofWords } from './approvers';
import type { Gate } from './model';

/** A gate as the view holds it, or as `baton inspect --json` reports it. */
type Decided = Pick<Gate, 'status' | 'approver' | 'approvedAt' | 'approverProof'> & { readonly decidedBy?: Gate['decidedBy'] | null };

/**
 * What a missing deploy evidence waits for when `deploy` is set in project.json: the backend's
 * message says it, and the Inbox's list line says "Run deploys and writes its evidence" only then.
 */
export const RUN_DEPLOYS = 'Run deploys the feature and writes it, once every story is accepted';

/** `acceptance (S-1)`: a per-story gate names its story, so two acceptance rows are never alike. */
export const gateLabel = (gate: Pick<Gate, 'name' | 'story'>): string => (gate.story ? `${gate.name} (${gate.story})` : gate.name);

/**
 * The approver (with how far the approval proves who made it), or for a gate sent back or taken
 * back `rejected by <name>` / `withdrawn by <name>`; `-` when nobody has decided it.
 */
export const deciderWords = (gate: Decided): string => {
  if (gate.decidedBy) return `${gate.status === 'withdrawn' ? 'withdrawn' : 'rejected'} by ${gate.decidedBy.who}`;
  if (!gate.approver) return '-';
  return gate.approverProof ? `${gate.approver} (${proofWords(gate.approverProof)})` : gate.approver;
};

/** When the decision in force was made: the approval's time, or the rejection's or withdrawal's. */
export const decidedAtWords = (gate: Decided): string => gate.decidedBy?.at ?? gate.approvedAt ?? '-';
