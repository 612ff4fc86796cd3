/** The spec's artifacts rendered: a feature's heading and description, a story's sentence, an AC's Given / When / Then. */
import { Fragment } from 'react';
import { fieldMark, markOf, type Against } from './compare';
import { independenceLine, type AcDoc, type FeatureDoc, type StoryDoc } from './parse-spec';
import { ChangeMark, markClass, orDash } from './parts';

function Title({ id, title, mark }: { id: string | null; title: string | null; mark: ReturnType<typeof markOf> }) {
  return (
    <h4 className={markClass(mark, 'rendered-title')}>
      {id && <span className="mono muted">{id}</span>} {orDash(title)} <ChangeMark mark={mark} />
    </h4>
  );
}

export function FeatureView({ doc, against }: { doc: FeatureDoc; against?: Against<FeatureDoc> }) {
  const description = fieldMark(doc, 'description', against);
  const request = fieldMark(doc, 'request', against);
  return (
    <div className="rendered-doc">
      <Title id={doc.id} title={doc.name} mark={against ? markOf([doc.id, doc.name], [against.other.id, against.other.name], against.side) : null} />
      <p className={markClass(description, 'rendered-prose')}>
        {doc.description ?? <span className="muted">No description.</span>} <ChangeMark mark={description} />
      </p>
      {doc.request !== null && (
        <div className={markClass(request, 'rendered-section')}>
          <h5 className="rendered-section-title">
            Request <ChangeMark mark={request} />
          </h5>
          <p className="rendered-prose">{doc.request}</p>
        </div>
      )}
    </div>
  );
}

export function StoryView({ doc, against }: { doc: StoryDoc; against?: Against<StoryDoc> }) {
  const other = against?.other;
  const sentence = against ? markOf([doc.asA, doc.iWant, doc.soThat], [other!.asA, other!.iWant, other!.soThat], against.side) : null;
  const line = independenceLine(doc);
  const independence = against ? markOf(line, independenceLine(against.other), against.side) : null;
  return (
    <div className="rendered-doc">
      <Title id={doc.id} title={doc.title} mark={against ? markOf([doc.id, doc.title], [other!.id, other!.title], against.side) : null} />
      <p className={markClass(sentence, 'story-narrative')}>
        <span className="lead-word">As a</span> {orDash(doc.asA)}, <span className="lead-word">I want</span> {orDash(doc.iWant)},{' '}
        <span className="lead-word">so that</span> {orDash(doc.soThat)}. <ChangeMark mark={sentence} />
      </p>
      <p className={markClass(independence, 'rendered-independence')} data-testid="story-independence">
        {line ?? <span className="muted">The story does not say whether it is independent.</span>} <ChangeMark mark={independence} />
      </p>
    </div>
  );
}

const STEPS = [
  ['given', 'Given'],
  ['when', 'When'],
  ['then', 'Then'],
] as const;

export function AcView({ doc, against }: { doc: AcDoc; against?: Against<AcDoc> }) {
  return (
    <div className="rendered-doc">
      <Title id={doc.id} title={doc.title} mark={against ? markOf([doc.id, doc.title], [against.other.id, against.other.title], against.side) : null} />
      <dl className="gwt" data-testid="rendered-gwt">
        {STEPS.map(([key, word]) => {
          const mark = fieldMark(doc, key, against);
          return (
            <Fragment key={key}>
              <dt>{word}</dt>
              <dd className={markClass(mark)}>
                {orDash(doc[key])} <ChangeMark mark={mark} />
              </dd>
            </Fragment>
          );
        })}
      </dl>
    </div>
  );
}
