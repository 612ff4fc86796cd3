/** One ledger record: its fields, its data as readable fields (raw JSON a click away), and its blobs, each opened on demand. */
import { useState } from 'react';
import type { BlobRef, LedgerRecord } from '../../../shared/ledger';
import { ErrorBanner } from '../components/error-banner';
import { displayText, formatBytes } from '../lib/artifact-text';
import { friendlyTime, shortHash } from '../lib/format';
import { RecordData } from './record-data';
import { subjectTitle, subjectWords } from './record-words';
import { useBlobPages } from './use-blob';

function BlobContent({ blob }: { blob: BlobRef }) {
  const { pages, error, loadingMore, loadMore } = useBlobPages(blob.sha256);

  return (
    <section className="blob-view" data-testid="blob-view" aria-label={`Blob ${blob.name}`} aria-busy={(!pages && !error) || loadingMore}>
      <header className="blob-header">
        <strong className="mono">{blob.name}</strong>
        <code className="hash" title={`sha256 ${blob.sha256}`}>
          {shortHash(blob.sha256)}
        </code>
        <span className="muted">{formatBytes(pages?.bytes ?? blob.bytes)}</span>
      </header>
      {error && <ErrorBanner error={error} title={pages ? 'The next part of the blob could not be read' : 'The blob could not be read'} />}
      {!pages && !error && <p className="muted">Reading the blob…</p>}
      {pages &&
        (pages.text === null ? (
          <p className="muted" data-testid="blob-binary">
            binary, {pages.bytes.toLocaleString('en-US')} bytes
          </p>
        ) : (
          <>
            <pre className="artifact-text blob-text" tabIndex={0}>
              {pages.complete ? displayText(blob.name, pages.text) : pages.text}
            </pre>
            {!pages.complete && (
              <p className="muted" data-testid="blob-shown">
                {pages.binaryFrom !== null
                  ? `Showing the first ${formatBytes(pages.binaryFrom)} of ${formatBytes(pages.bytes)}: the rest is binary.`
                  : `Showing the first ${formatBytes(pages.loaded)} of ${formatBytes(pages.bytes)}.`}
              </p>
            )}
            {pages.more && (
              // aria-disabled, not disabled: the button keeps keyboard focus while the next page loads.
              <button type="button" className="button" data-testid="blob-load-more" aria-disabled={loadingMore} onClick={loadMore}>
                {loadingMore ? 'Loading…' : 'Load more'}
              </button>
            )}
          </>
        ))}
    </section>
  );
}

export function RecordDetail({ record, onClose }: { record: LedgerRecord; onClose(): void }) {
  const [blob, setBlob] = useState<BlobRef | null>(null);
  const when = friendlyTime(record.at);
  return (
    <aside className="record-detail" data-testid="record-detail" aria-labelledby="record-detail-title">
      <header className="record-detail-header">
        <h2 id="record-detail-title">
          <span className="mono muted">#{record.seq}</span> <span className="mono">{record.type}</span>
        </h2>
        <button type="button" className="button button-quiet" onClick={onClose} aria-label="Close the record">
          ✕
        </button>
      </header>
      <dl className="fields">
        <dt>Time</dt>
        <dd>
          {when ? (
            <>
              <time dateTime={record.at}>{when.absolute}</time> <span className="muted">· {when.relative}</span>
            </>
          ) : (
            record.at
          )}
        </dd>
        <dt>Actor</dt>
        <dd>
          {record.actor.id} <span className="muted">({record.actor.kind})</span>
        </dd>
        <dt>Subject</dt>
        <dd title={subjectTitle(record.subject)}>{subjectWords(record.subject)}</dd>
        <dt>Hash</dt>
        <dd>
          <code className="hash" title={record.hash}>
            {shortHash(record.hash)}
          </code>
        </dd>
        <dt>Previous</dt>
        <dd>
          <code className="hash" title={record.prev}>
            {shortHash(record.prev)}
          </code>
        </dd>
      </dl>
      <RecordData data={record.data} />
      <section className="drawer-section" aria-labelledby="record-blobs-title">
        <h3 id="record-blobs-title">Blobs</h3>
        {record.blobs.length === 0 ? (
          <p className="muted">This record keeps no blobs.</p>
        ) : (
          <ul className="blob-list" role="list">
            {record.blobs.map((b) => (
              <li key={`${b.name}/${b.sha256}`}>
                <button
                  type="button"
                  className="blob-button"
                  data-testid="record-blob"
                  data-name={b.name}
                  aria-pressed={blob?.sha256 === b.sha256 && blob.name === b.name}
                  onClick={() => setBlob(b)}
                >
                  <span className="mono">{b.name}</span>
                  <span className="muted">{formatBytes(b.bytes)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {blob && <BlobContent key={`${blob.name}/${blob.sha256}`} blob={blob} />}
      </section>
    </aside>
  );
}
