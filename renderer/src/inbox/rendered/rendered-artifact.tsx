/**
 * One artifact's rendered view, chosen by its kind (parse-artifact.ts), with the note naming the
 * fields the view does not show. Given the other version, each part is marked against it.
 */
import { ArchitectureView } from './architecture-view';
import type { Against, Side } from './compare';
import { DbDesignView, UxGuideView } from './design-views';
import type { ParsedArtifact, RenderedDoc, RenderedKind } from './parse-artifact';
import type { SpecIndex } from './parse-test-list';
import { OtherFields } from './parts';
import { AcView, FeatureView, StoryView } from './spec-views';
import { TestListView } from './test-list-view';

type DocOf<K extends RenderedKind> = Extract<RenderedDoc, { kind: K }>['doc'];

interface Props {
  readonly parsed: ParsedArtifact;
  /** The other version, in the changes view: `side` says which one this is. */
  readonly against?: { readonly side: Side; readonly other: ParsedArtifact };
  /** The project's spec, for the test list's story groups and titles. */
  readonly spec?: SpecIndex;
}

function View({ rendered, against, spec }: { rendered: RenderedDoc; against?: Props['against']; spec?: SpecIndex }) {
  // Both versions have the same name, so the same kind; the check keeps the types honest.
  const other = <K extends RenderedKind>(kind: K): Against<DocOf<K>> | undefined =>
    against && against.other.rendered.kind === kind ? { side: against.side, other: against.other.rendered.doc as DocOf<K> } : undefined;
  switch (rendered.kind) {
    case 'feature':
      return <FeatureView doc={rendered.doc} against={other('feature')} />;
    case 'story':
      return <StoryView doc={rendered.doc} against={other('story')} />;
    case 'ac':
      return <AcView doc={rendered.doc} against={other('ac')} />;
    case 'architecture':
      return <ArchitectureView doc={rendered.doc} against={other('architecture')} />;
    case 'db-design':
      return <DbDesignView doc={rendered.doc} against={other('db-design')} />;
    case 'ux-guide':
      return <UxGuideView doc={rendered.doc} against={other('ux-guide')} />;
    case 'test-list':
      return <TestListView doc={rendered.doc} against={other('test-list')} spec={spec} />;
  }
}

export function RenderedArtifact({ parsed, against, spec }: Props) {
  return (
    <div className="rendered" data-testid="artifact-rendered" data-kind={parsed.rendered.kind}>
      <View rendered={parsed.rendered} against={against} spec={spec} />
      <OtherFields others={parsed.others} />
    </div>
  );
}
