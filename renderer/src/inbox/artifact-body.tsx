/**
 * An open artifact's body: a segmented choice of how to read it — Rendered (the default when its
 * kind has a view and it parses), JSON (the raw text, one click away) and, when it changed since
 * approval, the changes: both versions rendered side by side with what differs marked, and the text
 * diff of the lines.
 */
import { useMemo, useState } from 'react';
import type { EvidenceArtifact } from '../../../shared/ledger';
import { DiffTable } from '../components/diff-table';
import { displayText, isJsonName } from '../lib/artifact-text';
import { parseArtifact, unrenderedReason, type ParsedArtifact } from './rendered/parse-artifact';
import type { SpecIndex } from './rendered/parse-test-list';
import { RenderedArtifact } from './rendered/rendered-artifact';

type ViewId = 'rendered' | 'raw' | 'changes' | 'text-changes';

interface Props {
  /** Its `text` is not null: a missing or binary file has no body to choose views of. */
  readonly artifact: EvidenceArtifact & { readonly text: string };
  /** The earlier approved text (or the version sent back), when it differs from the current one. */
  readonly approvedText: string | null;
  /** What that earlier version was: `Approved` (default) or `Sent back`. */
  readonly previous?: 'Approved' | 'Sent back';
  readonly spec?: SpecIndex;
}

function RenderedChanges({
  name,
  before,
  after,
  spec,
  previous,
}: {
  name: string;
  before: ParsedArtifact;
  after: ParsedArtifact;
  spec?: SpecIndex;
  previous: string;
}) {
  const same = JSON.stringify(before.rendered) === JSON.stringify(after.rendered);
  return (
    <div className="rendered-changes" data-testid="artifact-rendered-changes">
      <p className="muted">
        {same
          ? 'Both versions read the same here: what changed is in fields this view does not show. "Text changes" shows the lines.'
          : 'Parts that differ are marked new, removed or changed. "Text changes" shows the exact lines.'}
      </p>
      <div className="rendered-compare">
        <section className="rendered-version" aria-label={`${name}, ${previous.toLowerCase()} version`} data-testid="rendered-approved">
          <p className="rendered-version-title">{previous}</p>
          <RenderedArtifact parsed={before} against={{ side: 'approved', other: after }} spec={spec} />
        </section>
        <section className="rendered-version" aria-label={`${name}, current version`} data-testid="rendered-now">
          <p className="rendered-version-title">Now</p>
          <RenderedArtifact parsed={after} against={{ side: 'now', other: before }} spec={spec} />
        </section>
      </div>
    </div>
  );
}

export function ArtifactBody({ artifact, approvedText, spec, previous = 'Approved' }: Props) {
  const { name, text } = artifact;
  const current = useMemo(() => parseArtifact(name, text), [name, text]);
  const before = useMemo(() => (approvedText === null ? null : parseArtifact(name, approvedText)), [name, approvedText]);
  const changed = approvedText !== null;
  // Both versions rendered only when both parse; otherwise the changes are the text diff, as before.
  const renderedChanges = changed && current !== null && before !== null;

  const views: { id: ViewId; label: string }[] = [];
  if (current) views.push({ id: 'rendered', label: 'Rendered' });
  views.push({ id: 'raw', label: isJsonName(name) ? 'JSON' : 'Text' });
  if (changed) views.push({ id: 'changes', label: previous === 'Approved' ? 'Changes since approval' : 'Changes since sent back' });
  if (renderedChanges) views.push({ id: 'text-changes', label: 'Text changes' });
  const [view, setView] = useState<ViewId>(changed ? 'changes' : current ? 'rendered' : 'raw');
  const why = current ? null : unrenderedReason(name, text);

  const textDiff = () => <DiffTable name={name} before={displayText(name, approvedText ?? '')} after={displayText(name, text)} />;
  let body;
  if (view === 'rendered' && current) body = <RenderedArtifact parsed={current} spec={spec} />;
  else if (view === 'changes' && changed)
    body = renderedChanges ? <RenderedChanges name={name} before={before} after={current} spec={spec} previous={previous} /> : textDiff();
  else if (view === 'text-changes' && changed) body = textDiff();
  else {
    body = (
      <pre className="artifact-text" tabIndex={0} aria-label={`${name}, current text`}>
        {displayText(name, text)}
      </pre>
    );
  }

  return (
    <>
      {views.length > 1 && (
        <div className="segmented" role="group" aria-label={`Show ${name} as`}>
          {views.map((v) => (
            <button
              key={v.id}
              type="button"
              className="segment"
              data-testid={`artifact-view-${v.id}`}
              aria-pressed={view === v.id}
              onClick={() => setView(v.id)}
            >
              {v.label}
            </button>
          ))}
        </div>
      )}
      {why && (
        <p className="muted rendered-fallback" data-testid="artifact-unrendered">
          No rendered view: {why}. The text is shown as it is.
        </p>
      )}
      {body}
    </>
  );
}
