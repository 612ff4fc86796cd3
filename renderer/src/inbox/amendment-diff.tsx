/**
 * One amended test file: the locked version against the proposed one, both read from the ledger by
 * their hashes, shown with the diff component (one column: − the locked line, + the proposed one).
 */
import type { AmendedFile } from '../../../shared/model';
import { DiffTable } from '../components/diff-table';
import { ErrorBanner } from '../components/error-banner';
import { formatBytes } from '../lib/artifact-text';
import { shortHash } from '../lib/format';
import { useBlob } from '../evidence/use-blob';

const LOCKED_PROPOSED = { before: 'Locked', after: 'Proposed' };

export function AmendmentDiff({ file }: { file: AmendedFile }) {
  const locked = useBlob(file.was);
  const proposed = useBlob(file.sha256);
  const loading = (!locked.view && !locked.error) || (!proposed.view && !proposed.error);
  let body;
  if (locked.error || proposed.error) {
    body = (
      <ErrorBanner
        error={(locked.error ?? proposed.error)!}
        title={`The ${locked.error ? 'locked' : 'proposed'} version of ${file.path} could not be read from the ledger`}
      />
    );
  } else if (loading) {
    body = <div className="skeleton-card" aria-hidden="true" />;
  } else if (!locked.view || !proposed.view || locked.view.text === null || proposed.view.text === null) {
    body = <p className="muted">One of the two versions is binary, so no line diff can be shown: both are in the ledger under the hashes above.</p>;
  } else if (locked.view.truncated || proposed.view.truncated) {
    body = <p className="muted">One of the two versions is longer than 1 MB, too long to compare here: both are in the ledger under the hashes above.</p>;
  } else {
    body = <DiffTable name={file.path} before={locked.view.text} after={proposed.view.text} mode="unified" labels={LOCKED_PROPOSED} />;
  }
  return (
    <section
      className="amendment-file"
      data-testid="amendment-diff"
      data-path={file.path}
      aria-label={`${file.path}: locked against proposed`}
      aria-busy={loading}
    >
      <header className="diff-artifact-header">
        <h4 className="mono">{file.path}</h4>
        <span className="muted amendment-file-hashes">
          <span className="diff-stat-removed">−</span> locked <code title={`sha256 ${file.was}`}>{shortHash(file.was)}</code> ·{' '}
          <span className="diff-stat-added">+</span> proposed <code title={`sha256 ${file.sha256}`}>{shortHash(file.sha256)}</code> · {formatBytes(file.bytes)}
        </span>
      </header>
      {body}
    </section>
  );
}
