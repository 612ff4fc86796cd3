/**
 * The escalated cycle's last failing test run: the verdict's summary and the runner's own output
 * (stdout, stderr), read from the record's blobs: what the agents could not get past.
 */
import type { BlobRef } from '../../../shared/ledger';
import { RECORD_TYPES } from '../../../shared/records';
import { ErrorBanner } from '../components/error-banner';
import { Icon } from '../components/icon';
import { formatBytes } from '../lib/artifact-text';
import { friendlyTime, humanize, shortHash } from '../lib/format';
import { RUNNER_OUTPUT, type RunRecord } from '../lib/inbox-model';
import { useBlob } from '../evidence/use-blob';

function RunnerBlob({ blob }: { blob: BlobRef }) {
  const { view, error } = useBlob(blob.sha256);

  const label = blob.name.replace(/^runner\//, '').replace(/\.txt$/, '');
  return (
    <section className="runner-blob" data-testid="runner-blob" data-name={blob.name} aria-label={`Runner ${label}`} aria-busy={!view && !error}>
      <header className="blob-header">
        <strong className="mono">{label}</strong>
        <code className="hash" title={`sha256 ${blob.sha256}`}>
          {shortHash(blob.sha256)}
        </code>
        <span className="muted">{formatBytes(view?.bytes ?? blob.bytes)}</span>
      </header>
      {error && <ErrorBanner error={error} title={`The runner's ${label} could not be read`} />}
      {!view && !error && <div className="skeleton-line" style={{ width: '60%' }} aria-hidden="true" />}
      {view &&
        (view.text === null ? (
          <p className="muted">binary, {view.bytes.toLocaleString('en-US')} bytes</p>
        ) : view.text.trim() === '' ? (
          <p className="muted">empty</p>
        ) : (
          <>
            <pre className="artifact-text runner-text" tabIndex={0}>
              {view.text}
            </pre>
            {view.truncated && <p className="muted">Showing the first 1 MB of {formatBytes(view.bytes)}.</p>}
          </>
        ))}
    </section>
  );
}

export function FailingRun({ record }: { record: RunRecord }) {
  const when = friendlyTime(record.at);
  const { verdict } = record.data;
  const failure = (record.type === RECORD_TYPES.cycleGreen ? record.data.failure : null) ?? record.data.detail ?? null;
  const blobs = RUNNER_OUTPUT.map((name) => record.blobs.find((b) => b.name === name)).filter((b): b is BlobRef => b !== undefined);
  return (
    <section className="failing-run" aria-labelledby="failing-run-title" data-testid="escalation-runner-output">
      <h3 id="failing-run-title">Last failing run</h3>
      <p className="failing-run-meta">
        <span className="badge tone-danger">
          <Icon name="red" />
          <span>{humanize(verdict)}</span>
        </span>
        <span className="mono">{record.type}</span>
        <span className="muted mono" title={record.hash}>
          #{record.seq} · {shortHash(record.hash)}
        </span>
        {when && (
          <time className="muted" dateTime={record.at} title={when.absolute}>
            {when.relative}
          </time>
        )}
      </p>
      {failure && <pre className="artifact-text failing-run-summary">{failure}</pre>}
      {blobs.map((blob) => (
        <RunnerBlob key={blob.name} blob={blob} />
      ))}
    </section>
  );
}
