/**
 * One artifact under decision. Closed until the person opens it (that is what "the evidence has
 * been opened" means, whichever view it opens on); open, it shows the artifact rendered for its
 * kind, its raw text, and, when an earlier version was approved, the changes since then.
 */
import { useId } from 'react';
import type { EvidenceArtifact } from '../../../shared/ledger';
import { Icon } from '../components/icon';
import { friendlyTime, humanize, shortHash } from '../lib/format';
import { artifactTestId } from '../lib/gate-ref';
import { ArtifactBody } from './artifact-body';
import { useSpecIndex } from './rendered/spec-index';

/** What the approver compares: an earlier approved text that differs from the current one. */
export const hasChanges = (a: EvidenceArtifact): boolean =>
  a.approved !== null && a.approved.text !== null && a.text !== null && a.approved.sha256 !== a.sha256;

/** An artifact is "viewed" per version: a new hash must be opened again. */
export const viewKey = (a: EvidenceArtifact): string => `${a.name}@${a.sha256 ?? 'missing'}`;

function Standing({ artifact }: { artifact: EvidenceArtifact }) {
  if (artifact.problem) {
    return (
      <span className="artifact-standing tone-text-danger">
        <Icon name="warning" /> cannot be approved
      </span>
    );
  }
  if (!artifact.approved && artifact.approvedElsewhere)
    return (
      <span className="artifact-standing muted" data-testid="artifact-approved-elsewhere" title={`sha256 ${artifact.approvedElsewhere.sha256}`}>
        approved at {humanize(artifact.approvedElsewhere.gate)} (hash <code className="hash">{shortHash(artifact.approvedElsewhere.sha256)}</code>)
      </span>
    );
  if (!artifact.approved) return <span className="artifact-standing muted">new · never approved</span>;
  if (artifact.approved.sha256 === artifact.sha256) return <span className="artifact-standing muted">unchanged since approval</span>;
  return (
    <span className="artifact-standing tone-text-warning">
      <Icon name="diff" /> changed since approval
    </span>
  );
}

function Content({ artifact, feature }: { artifact: EvidenceArtifact; feature?: string }) {
  const spec = useSpecIndex(feature);
  const { text, approved } = artifact;
  // A gate sent back shows its revision against what was sent back (the role ran again with the note).
  const sentBack = artifact.sentBack ?? null;
  const revised = sentBack !== null && sentBack.text !== null && text !== null && sentBack.sha256 !== artifact.sha256;
  if (text === null) {
    return <p className="muted">{artifact.sha256 === null ? 'The file is missing on disk.' : 'This file is binary; Baton shows text artifacts only.'}</p>;
  }
  return (
    <div className="artifact-content">
      {approved && (
        <p className="muted artifact-approved-line">
          Previously approved by {approved.approver}
          {friendlyTime(approved.approvedAt) ? ` on ${friendlyTime(approved.approvedAt)!.absolute}` : ''} ·{' '}
          <code className="hash">{shortHash(approved.sha256)}</code>
        </p>
      )}
      {sentBack && (
        <p className="muted artifact-approved-line" data-testid="artifact-sent-back">
          Sent back by {sentBack.by}
          {friendlyTime(sentBack.at) ? ` on ${friendlyTime(sentBack.at)!.absolute}` : ''}: “{sentBack.reason}” ·{' '}
          {sentBack.sha256 === artifact.sha256 ? 'not revised since' : 'revised since'}
        </p>
      )}
      {revised ? (
        <ArtifactBody artifact={{ ...artifact, text }} approvedText={sentBack!.text} previous="Sent back" spec={spec} />
      ) : (
        <ArtifactBody artifact={{ ...artifact, text }} approvedText={hasChanges(artifact) ? approved!.text : null} spec={spec} />
      )}
    </div>
  );
}

interface Props {
  readonly artifact: EvidenceArtifact;
  readonly open: boolean;
  readonly viewed: boolean;
  /** Set when this artifact's text changed under the person; they must open it again. */
  readonly changedWhileReading: boolean;
  /** The gate's feature: its spec names the stories of the test list's ACs. */
  readonly feature?: string;
  onToggle(): void;
}

export function ArtifactCard({ artifact, open, viewed, changedWhileReading, feature, onToggle }: Props) {
  const bodyId = useId();
  return (
    <section className={open ? 'artifact artifact-open' : 'artifact'} data-testid={artifactTestId(artifact.name)} aria-label={artifact.name}>
      <header className="artifact-header">
        <button type="button" className="artifact-toggle" data-testid="open-evidence" aria-expanded={open} aria-controls={bodyId} onClick={onToggle}>
          <Icon name="chevron" className="chevron" />
          <span className="artifact-name">{artifact.name}</span>
          <span className="artifact-action">{open ? 'Hide artifact' : 'Show artifact'}</span>
        </button>
        <Standing artifact={artifact} />
        {artifact.sha256 && (
          <code className="hash" title={`${artifact.algorithm} ${artifact.sha256}`}>
            {shortHash(artifact.sha256)}
          </code>
        )}
        <span className={viewed ? 'viewed viewed-yes' : 'viewed'} data-testid="artifact-viewed" data-viewed={viewed}>
          <Icon name={viewed ? 'eye' : 'pending'} />
          {viewed ? 'viewed' : 'not opened'}
        </span>
      </header>
      {changedWhileReading && !open && (
        <p className="artifact-changed" role="status">
          <Icon name="warning" /> Changed on disk while you were reading it — open it again to review the new version.
        </p>
      )}
      {artifact.problem && (
        <p className="artifact-problem">
          <Icon name="warning" /> {artifact.problem}
        </p>
      )}
      <div id={bodyId} hidden={!open}>
        {open && <Content artifact={artifact} feature={feature} />}
      </div>
    </section>
  );
}
