/** An acceptance criterion as Given / When / Then. */
import type { AcceptanceCriterion } from '../../../shared/model';

export function GivenWhenThen({ ac }: { ac: AcceptanceCriterion }) {
  return (
    <dl className="gwt">
      <dt>Given</dt>
      <dd>{ac.given || '—'}</dd>
      <dt>When</dt>
      <dd>{ac.when || '—'}</dd>
      <dt>Then</dt>
      <dd>{ac.then || '—'}</dd>
    </dl>
  );
}
