/**
 * Who made each approval, as far as the ledger proves it: every person's record that carries a
 * signature must verify (a record changed after it was signed is a problem, exit 1), and each
 * approval is judged against the policy in project.json (shared/approvers.ts `approverProof`):
 * signed, typed (no policy: today's typed name) or unauthenticated (`baton verify --strict` fails);
 * a project.json that does not read makes every approval unauthenticated.
 */
import { approverProof, shortKey, type ApproverPolicy, type ApproverProof } from '../../shared/approvers';
import type { ApprovalSummary, LedgerRecord, VerifyProblem } from '../../shared/ledger';
import type { ProjectView } from '../../shared/model';
import { RECORD_TYPES } from '../../shared/records';
import { personSignatureOf } from '../ledger';
import { readSettings } from '../project/read-settings';

export interface ApprovalCheck {
  readonly summary: ApprovalSummary;
  readonly problems: readonly VerifyProblem[];
}

/**
 * The policy decisions are judged against: none when there is no project.json (a Consort layout);
 * `unreadable` when it is there but does not read or validate. Then no approval can be judged, and
 * none is let through as "typed": breaking the file must not switch the policy off.
 */
export async function approverPolicy(artifactRoot: string): Promise<PolicyRead> {
  const read = await readSettings(artifactRoot).catch((error: unknown) => ({
    ok: false as const,
    error: { code: 'invalid-settings', message: String(error) },
  }));
  if (read.ok) return { policy: read.value.settings };
  return read.error.code === 'no-settings' ? {} : { unreadable: read.error.message };
}

const gateOf = (record: LedgerRecord): string => {
  const gate = record.data['gate'] ?? record.subject.gate;
  return typeof gate === 'string' ? gate : '?';
};

const approverOf = (record: LedgerRecord): string => {
  const approver = record.data['approver'];
  return typeof approver === 'string' ? approver : record.actor.id;
};

/** The approver policy as read: the policy, or why it could not be read (approverPolicy). */
type PolicyRead = { readonly policy?: ApproverPolicy; readonly unreadable?: string };

/** One approval record's proof under `read` (its signature checked once, by the caller, or here). */
const proofOf = ({ policy, unreadable }: PolicyRead, record: LedgerRecord, signature = personSignatureOf(record)): ApproverProof =>
  unreadable
    ? { state: 'unauthenticated', why: `the approver policy cannot be read, so nothing can be checked against it (${unreadable})` }
    : approverProof(policy, gateOf(record), approverOf(record), signature);

/**
 * `ownKeys`: with `baton verify --own-trust`, the keys on the reviewer's own lists; a signature by any
 * other key proves nothing to them, whatever the folder's approverKeys says (someone who can rewrite
 * the folder can list a key there too).
 */
export function checkApprovals(
  read: PolicyRead,
  records: readonly LedgerRecord[],
  ledgerFile: string,
  ownKeys: ReadonlyMap<string, string> | null = null,
): ApprovalCheck {
  const problems: VerifyProblem[] = [];
  let signed = 0;
  let typed = 0;
  const unauthenticated: ApprovalSummary['unauthenticated'][number][] = [];
  for (const record of records) {
    if (record.actor.kind !== 'person') continue;
    const signature = personSignatureOf(record);
    if (signature && !signature.valid)
      problems.push({
        file: ledgerFile,
        seq: record.seq,
        message: `record #${record.seq} (${record.type} by ${record.actor.id}) carries a signature by ${shortKey(signature.key)} that does not verify: the record was changed after it was signed`,
      });
    if (record.type !== RECORD_TYPES.gateApproved) continue;
    const folder = proofOf(read, record, signature);
    const proof =
      ownKeys && folder.state === 'signed' && folder.key && !ownKeys.has(folder.key)
        ? {
            state: 'unauthenticated' as const,
            why: `it is signed by ${shortKey(folder.key)}, which is on none of your own lists (--own-trust): add it to your trusted-keys.json if it is the approver's`,
          }
        : folder;
    if (proof.state === 'signed') signed += 1;
    else if (proof.state === 'typed') typed += 1;
    else unauthenticated.push({ seq: record.seq, gate: gateOf(record), approver: approverOf(record), why: proof.why ?? 'unauthenticated' });
  }
  return { summary: { signed, typed, unauthenticated }, problems };
}

/** Each Baton gate's approval in force, with its proof (the Inbox shows signed, typed or unauthenticated). */
export function annotateApproverProofs(view: ProjectView, records: readonly LedgerRecord[], read: PolicyRead): ProjectView {
  if (view.layout !== 'baton' || !view.features.some((f) => f.gates.some((g) => g.approvalSeq !== undefined))) return view;
  const bySeq = new Map(records.map((r) => [r.seq, r]));
  return {
    ...view,
    features: view.features.map((f) => ({
      ...f,
      gates: f.gates.map((g) => {
        const record = g.approvalSeq === undefined ? undefined : bySeq.get(g.approvalSeq);
        return record ? { ...g, approverProof: proofOf(read, record) } : g;
      }),
    })),
  };
}
