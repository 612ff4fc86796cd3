/** What else backs the decision: the test list by status, cycles run, ledger records. */
import { TEST_STATUSES, type TestStatus } from '../../../shared/model';
import type { GateEvidence } from '../../../shared/ledger';
import { TestStatusBadge } from '../components/status-badge';
import { friendlyTime } from '../lib/format';

const isTestStatus = (s: string): s is TestStatus => (TEST_STATUSES as readonly string[]).includes(s);

export function EvidenceSummary({ summary }: { summary: GateEvidence['summary'] }) {
  const last = summary.lastRecordAt ? friendlyTime(summary.lastRecordAt) : null;
  const statuses = Object.entries(summary.byStatus).filter(([, n]) => n > 0);
  return (
    <section className="evidence-summary" aria-labelledby="evidence-summary-title" data-testid="evidence-summary">
      <h3 id="evidence-summary-title">Evidence summary</h3>
      <dl className="summary-grid">
        <dt>Test items</dt>
        <dd>
          {summary.testItems === 0 ? (
            <span className="muted">none yet — they appear after the test_list gate</span>
          ) : (
            <span className="summary-statuses">
              <span>{summary.testItems}</span>
              {statuses.map(([status, n]) => (
                <span key={status} className="summary-status">
                  {isTestStatus(status) ? <TestStatusBadge status={status} /> : <span>{status}</span>} {n}
                </span>
              ))}
            </span>
          )}
        </dd>
        <dt>Cycles</dt>
        <dd>{summary.cycles === 0 ? <span className="muted">none run yet</span> : summary.cycles}</dd>
        <dt>Ledger</dt>
        <dd>
          {summary.records === 0 ? (
            <span className="muted">no records about this feature yet</span>
          ) : (
            <>
              {summary.records} {summary.records === 1 ? 'record' : 'records'}
              {last && (
                <span className="muted">
                  {' '}
                  · last <time dateTime={summary.lastRecordAt ?? undefined}>{last.relative}</time>
                </span>
              )}
            </>
          )}
        </dd>
      </dl>
    </section>
  );
}
