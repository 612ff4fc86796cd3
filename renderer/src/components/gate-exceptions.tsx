/**
 * An approval with exceptions, shown wherever the gate is for as long as that approval is in force:
 * a badge, each AC accepted unproven with why, and the approver's reason. It is part of the
 * approval, so it is never hidden or folded away.
 */
import type { GateExceptions } from '../../../shared/model';
import { Badge } from './status-badge';

interface Props {
  readonly exceptions: GateExceptions;
  /** The AC's title, when the story still names it. */
  readonly acTitle?: (ac: string) => string | undefined;
}

export function GateExceptionsNote({ exceptions, acTitle }: Props) {
  return (
    <div className="gate-exceptions" data-testid="gate-exceptions">
      <Badge look={{ icon: 'warning', tone: 'warning' }} word="Approved with exceptions" testId="gate-exceptions-badge" />
      <ul className="gate-exceptions-acs" role="list" aria-label="Acceptance criteria accepted unproven">
        {exceptions.acs.map(({ ac, why }) => {
          const title = acTitle?.(ac);
          return (
            <li key={ac} data-testid={`gate-exception-${ac}`}>
              <span className="mono">{ac}</span>
              {title && <> {title}</>} <span className="muted">unproven ({why})</span>
            </li>
          );
        })}
      </ul>
      <p className="gate-exceptions-reason" data-testid="gate-exceptions-reason">
        Reason: “{exceptions.reason}”
      </p>
    </div>
  );
}
