/**
 * A story's acceptance gate approves what its ACs proved (issue 32): every AC needs items that went
 * GREEN under Baton's own runs, none escalated or set aside, and tests that are not weak once
 * mutation testing has scored them. An AC without that proof can only be accepted as an exception:
 * a separate, explicit approval that names each unproven AC and says why, recorded as such. The
 * same check decides the evidence panel's "approvable", the CLI and every host. Pure over the ledger.
 */
import type { AcProof, LedgerRecord } from '../../shared/ledger';
import type { Feature } from '../../shared/model';
import type { AppError } from '../../shared/result';
import { describeRef, type GateRef } from './artifacts';
import { evidenceSummary } from './proof';

/** The ACs of the gate's story that are not proven, each with why (empty for every other gate). */
export const unprovenAcs = (feature: Feature, ref: GateRef, records: readonly LedgerRecord[]): AcProof[] =>
  ref.gate === 'acceptance' && ref.story ? evidenceSummary(feature, records, ref.story).acs.filter((ac) => !ac.proven) : [];

const listed = (acs: readonly AcProof[]) => acs.map((ac) => `${ac.id}${ac.title ? ` "${ac.title}"` : ''} (${ac.why ?? 'unproven'})`).join('; ');

/**
 * Null when the gate may be approved with exactly `excepted` as its exceptions: every unproven AC
 * named, and nothing else. Otherwise what is wrong and what to do.
 */
export function acceptanceProofError(feature: Feature, ref: GateRef, records: readonly LedgerRecord[], excepted: readonly string[]): AppError | null {
  if (excepted.length > 0 && ref.gate !== 'acceptance') {
    return { code: 'invalid-request', message: `Exceptions apply to a story's acceptance gate only, not to ${describeRef(ref)}. Nothing was recorded.` };
  }
  const unproven = unprovenAcs(feature, ref, records);
  const ids = new Set(unproven.map((ac) => ac.id));
  const extra = excepted.filter((id) => !ids.has(id));
  if (extra.length > 0) {
    return {
      code: 'invalid-request',
      message:
        `Cannot approve ${describeRef(ref)} with exceptions: ${extra.join(', ')} ${extra.length === 1 ? 'is not an' : 'are not'} unproven AC${extra.length === 1 ? '' : 's'} of story ${ref.story ?? ''}. ` +
        (unproven.length > 0 ? `The unproven ones are ${unproven.map((ac) => ac.id).join(', ')}.` : 'Every AC is proven: approve it without exceptions.') +
        ' Nothing was recorded.',
    };
  }
  const missing = unproven.filter((ac) => !excepted.includes(ac.id));
  if (missing.length === 0) return null;
  const all = unproven.map((ac) => `--exception ${ac.id}`).join(' ');
  return {
    code: 'unproven',
    message:
      `Cannot approve ${describeRef(ref)}: ${missing.length === 1 ? 'an AC is' : `${missing.length} ACs are`} not proven: ${listed(missing)}. ` +
      'Acceptance approves what the tests proved: run the feature until these items are GREEN with tests strong enough to fail (deciding any escalation in the Inbox first), or, if the story should be accepted anyway, ' +
      `approve it with exceptions, naming each unproven AC and saying why (\`baton approve … ${all} --reason TEXT\`, or "Approve with exceptions" in the Inbox); the exceptions are recorded and shown with the approval for good.`,
  };
}
