/**
 * A story's ACs that are not proven, each with why ("T3 is escalated"): above the evidence of an
 * acceptance that cannot be approved for that alone, and again in the "Approve with exceptions" dialog.
 */
import type { AcProof } from '../../../shared/ledger';
import { Icon } from '../components/icon';

/** `unproven-ac` gives each row the test id `unproven-ac-AC-1`. */
export function UnprovenAcList({ acs, testIdPrefix }: { acs: readonly AcProof[]; testIdPrefix: string }) {
  return (
    <ul className="unproven-acs" role="list" aria-label="Acceptance criteria not proven">
      {acs.map((ac) => (
        <li key={ac.id} data-testid={`${testIdPrefix}-${ac.id}`}>
          <span className="mono">{ac.id}</span>
          {ac.title && <span className="unproven-ac-title">{ac.title}</span>}
          <span className="unproven-ac-why">— {ac.why ?? 'not proven'}</span>
        </li>
      ))}
    </ul>
  );
}

/** Why Approve is disabled, in full: each unproven AC, and the two ways on (prove it, or an explicit exception). */
export function UnprovenNotice({ acs }: { acs: readonly AcProof[] }) {
  const one = acs.length === 1;
  return (
    <section className="approvable-reason unproven-notice" data-testid="unproven-acs" aria-labelledby="unproven-acs-title">
      <Icon name="warning" />
      <div className="unproven-notice-body">
        <p id="unproven-acs-title">
          <strong>Cannot be approved now: {one ? 'an AC is' : `${acs.length} ACs are`} not proven.</strong> Acceptance approves what the tests proved.
        </p>
        <UnprovenAcList acs={acs} testIdPrefix="unproven-ac" />
        <p className="muted">
          Prove {one ? 'it' : 'them'} (settle what is named above, then run again), or accept the story anyway with “Approve with exceptions…” below: each
          unproven AC, why, and your reason are recorded with the approval and shown with it for good.
        </p>
      </div>
    </section>
  );
}
