/**
 * Gate conformance, just above the decision bar: for the spec, design and test_list gates of a
 * Baton project, either one line saying what holds, or every problem that blocks Approve (main
 * refuses the approval with the same list), so the person sees why Approve is disabled and what
 * to fix.
 */
import { CONFORMANCE_GATES } from '../../../shared/conformance';
import type { GateEvidence, GateName } from '../../../shared/ledger';
import type { Layout } from '../../../shared/model';
import { Icon } from '../components/icon';

/** What conformance checked, per gate (a later gate also checks what the earlier ones cover). */
const HOLDS: Readonly<Record<string, string>> = {
  spec: 'ACs are testable and unique, every story has one, stories are independent as declared',
  design: 'ACs are testable and unique, stories are independent as declared, persistence invariant ids are unique',
  test_list: 'ACs are testable, every AC has a test-list item, every persistence invariant has a test-list item, stories are independent as declared',
};

const problemsWord = (n: number): string => `${n} ${n === 1 ? 'problem' : 'problems'}`;

/** Whether conformance applies to this gate here: Baton's layout and one of the gates it covers. */
export const judgesConformance = (layout: Layout, gate: string): boolean => layout === 'baton' && CONFORMANCE_GATES.includes(gate as GateName);

/** True when main's reason for refusing Approve is the conformance list itself (not an earlier blocker). */
export const blockedByConformance = (evidence: GateEvidence): boolean =>
  !evidence.approvable.ok && evidence.conformance.length > 0 && (evidence.approvable.reason ?? '').includes(evidence.conformance[0]!);

/** The decision bar's hint when conformance is what blocks Approve. */
export const conformanceHint = (evidence: GateEvidence): string =>
  `Approve is disabled: the ${evidence.gate.replace(/_/g, ' ')} does not conform (${problemsWord(evidence.conformance.length)} listed above).`;

export function ConformanceSection({ evidence }: { evidence: GateEvidence }) {
  const problems = evidence.conformance;
  const ok = problems.length === 0;
  return (
    <section
      className={ok ? 'conformance conformance-ok' : 'conformance conformance-failed'}
      aria-labelledby="conformance-title"
      data-testid="conformance"
      data-conforms={ok}
    >
      <h3 id="conformance-title" className="conformance-title">
        <Icon name={ok ? 'green' : 'red'} />
        Conformance{' '}
        <span className="conformance-verdict">
          {ok
            ? '· conforms'
            : `· does not conform (${problemsWord(problems.length)}): Approve is blocked until ${problems.length === 1 ? 'it is' : 'they are'} fixed`}
        </span>
      </h3>
      {ok ? (
        <p className="conformance-holds" data-testid="conformance-ok">
          Conforms: {HOLDS[evidence.gate] ?? 'the artifacts meet the gate’s rules'}.
        </p>
      ) : (
        <>
          <ol className="conformance-problems" aria-label="Conformance problems">
            {problems.map((problem, i) => (
              <li key={`${i}-${problem}`} data-testid="conformance-problem">
                {problem}
              </li>
            ))}
          </ol>
          <p className="muted conformance-next">Fix the artifacts on disk and Reload to check them again, or reject the gate with a note for its role.</p>
        </>
      )}
    </section>
  );
}
