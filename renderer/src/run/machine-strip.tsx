/**
 * A state machine as a horizontal strip of its states. The current one carries aria-current, an
 * icon and the word "now"; states already passed carry a check and say so to screen readers.
 */
import { Icon, type IconName } from '../components/icon';
import { stateWord } from './run-words';

interface Props {
  readonly label: string;
  /** The main path, in order; an exit state (escalated, abandoned) is shown only when it is current. */
  readonly states: readonly string[];
  readonly current: string | null;
  readonly testId: string;
}

/** The current state's icon: a check when done, a warning on an exit, otherwise work in progress. */
const currentIcon = (state: string): IconName => (state === 'done' ? 'green' : state === 'escalated' || state === 'abandoned' ? 'warning' : 'progress');

export function MachineStrip({ label, states, current, testId }: Props) {
  const onPath = current !== null && states.includes(current);
  const shown = current !== null && !onPath ? [...states, current] : states;
  const index = current === null ? -1 : shown.indexOf(current);
  return (
    <ol className="machine" aria-label={label} data-testid={testId} data-current={current ?? ''}>
      {shown.map((state, i) => {
        const phase = i === index ? 'current' : onPath && i < index ? 'passed' : 'ahead';
        return (
          <li key={state} className={`machine-state machine-${phase}`} data-state={state} aria-current={phase === 'current' ? 'step' : undefined}>
            {phase === 'current' && <Icon name={currentIcon(state)} />}
            {phase === 'passed' && <Icon name="green" />}
            <span>{stateWord(state)}</span>
            {phase === 'current' && <span className="machine-now">now</span>}
            {phase === 'passed' && <span className="visually-hidden"> (passed)</span>}
          </li>
        );
      })}
    </ol>
  );
}
