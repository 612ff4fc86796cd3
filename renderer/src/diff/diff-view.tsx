/**
 * Frozen versus current for one gate's artifacts (`#/diff/<feature>/<gate>[/<story>]`): the text
 * approved, kept as a blob in the ledger, against the file on disk now.
 */
import type { EvidenceArtifact } from '../../../shared/ledger';
import { DiffModeToggle, DiffTable } from '../components/diff-table';
import { ErrorBanner } from '../components/error-banner';
import { Icon } from '../components/icon';
import { GateStatusBadge } from '../components/status-badge';
import { displayText } from '../lib/artifact-text';
import { friendlyTime, humanize, shortHash } from '../lib/format';
import { artifactTestId, type GateRef } from '../lib/gate-ref';
import { useGateEvidence } from '../inbox/use-gate-evidence';
import { hrefFor } from '../store/hash-route';
import { useStore } from '../store/store';

/** Changed since approval, or (in a drifted gate) a file the approval never covered: added since. */
const drifted = (a: EvidenceArtifact, gateDrifted: boolean): boolean =>
  a.approved !== null ? a.approved.sha256 !== a.sha256 : gateDrifted && a.sha256 !== null;

function ArtifactDiff({ artifact, gateDrifted }: { artifact: EvidenceArtifact; gateDrifted: boolean }) {
  const { approved } = artifact;
  const changed = drifted(artifact, gateDrifted);
  const when = approved ? friendlyTime(approved.approvedAt) : null;
  let body;
  if (!approved) {
    body = changed ? (
      <p className="tone-text-danger">
        <Icon name="warning" /> Added since the gate was approved: this file has never been approved.
      </p>
    ) : (
      <p className="muted">Never approved: there is no frozen version to compare with.</p>
    );
  } else if (approved.text === null) {
    body = <p className="muted">The approved version is not stored as text in the ledger (hash {shortHash(approved.sha256)} only), so no diff can be shown.</p>;
  } else if (artifact.text === null) {
    body = (
      <p className="tone-text-danger">
        <Icon name="warning" /> {artifact.sha256 === null ? 'The file is gone from disk since it was approved.' : 'The current file is binary.'}
      </p>
    );
  } else {
    body = <DiffTable name={artifact.name} before={displayText(artifact.name, approved.text)} after={displayText(artifact.name, artifact.text)} />;
  }
  return (
    <section className="diff-artifact" data-testid={artifactTestId(artifact.name)} aria-label={artifact.name}>
      <header className="diff-artifact-header">
        <h3 className="mono">{artifact.name}</h3>
        {changed ? (
          <span className="badge tone-warning">
            <Icon name="diff" />
            <span>{approved ? 'changed since approval' : 'added since approval'}</span>
          </span>
        ) : (
          <span className="badge tone-success">
            <Icon name="green" />
            <span>unchanged</span>
          </span>
        )}
        {approved && (
          <span className="muted diff-approved-by">
            approved by {approved.approver}
            {when && <> · {when.absolute}</>}
          </span>
        )}
      </header>
      {changed ? body : <p className="muted">The file on disk is exactly what was approved.</p>}
    </section>
  );
}

function DiffScreen({ target }: { target: GateRef }) {
  const { evidence, error, loading, reload } = useGateEvidence(target);
  const feature = useStore((s) => s.project?.features.find((f) => f.id === target.feature) ?? null);
  const gate = feature?.gates.find((g) => g.name === target.gate && g.story === target.story) ?? null;
  const gateDrifted = evidence?.status === 'drifted';
  const artifacts = evidence ? [...evidence.artifacts].sort((a, b) => Number(drifted(b, gateDrifted)) - Number(drifted(a, gateDrifted))) : [];
  const changed = artifacts.filter((a) => drifted(a, gateDrifted)).length;

  return (
    <div className="diff-view" data-testid="diff-view" aria-busy={loading}>
      <header className="diff-view-header">
        <div className="diff-view-heading">
          <div className="diff-view-title">
            <h2>
              Compare with approved · {humanize(target.gate)} of {feature?.name ?? target.feature}
              {target.story && <span className="muted"> · story {target.story}</span>}
            </h2>
            {gate && <GateStatusBadge status={gate.status} />}
          </div>
          <p className="muted">The approved version (frozen in the ledger) on the left or marked −, the file on disk now on the right or marked +.</p>
        </div>
        <span className="spacer" />
        {changed > 0 && <DiffModeToggle />}
      </header>
      {error && <ErrorBanner error={error} title="Could not load the gate's artifacts" actionLabel="Try again" onAction={() => void reload()} />}
      {!evidence && !error && <p className="muted">Loading the artifacts…</p>}
      {evidence && (
        <>
          <p className="diff-view-summary" role="status">
            {artifacts.length === 0
              ? 'This gate names no artifacts.'
              : changed === 0
                ? 'Every artifact matches what was approved.'
                : `${changed} of ${artifacts.length} ${artifacts.length === 1 ? 'artifact has' : 'artifacts have'} changed since approval.`}
          </p>
          {artifacts.map((artifact) => (
            <ArtifactDiff key={artifact.name} artifact={artifact} gateDrifted={gateDrifted} />
          ))}
        </>
      )}
    </div>
  );
}

export function DiffView() {
  const target = useStore((s) => s.diffTarget);
  if (!target) {
    return (
      <div className="empty-state">
        <p>
          Nothing to compare. Open a gate&apos;s badge in <a href={hrefFor('specs')}>Specs</a> or <a href={hrefFor('gates')}>Gates</a>.
        </p>
      </div>
    );
  }
  return <DiffScreen key={`${target.feature}/${target.gate}/${target.story ?? ''}`} target={target} />;
}
