/** The left rail: the project on top, then the views. Links drive the URL hash. */
import { useMemo } from 'react';
import { Icon } from '../components/icon';
import { countPending } from '../lib/inbox-model';
import { hrefFor } from '../store/hash-route';
import { useStore } from '../store/store';
import { RAIL_SCREENS as LINKS } from '../lib/commands';

function ProblemsBadge() {
  const count = useStore((s) => s.project?.problems.length ?? 0);
  return (
    <span
      className={count > 0 ? 'count-badge count-badge-alert' : 'count-badge'}
      data-testid="problems-count"
      aria-label={`${count} ${count === 1 ? 'problem' : 'problems'}`}
    >
      {count}
    </span>
  );
}

function InboxBadge() {
  const project = useStore((s) => s.project);
  const count = useMemo(() => countPending(project), [project]);
  // Nothing can be decided in a read-only project: no count that says something needs you.
  if (project?.readOnly) {
    return (
      <span className="count-badge" data-testid="inbox-read-only-marker" title="Read-only: nothing can be decided here" aria-label="read-only">
        <Icon name="lock" />
      </span>
    );
  }
  return (
    <span
      className={count > 0 ? 'count-badge count-badge-attention' : 'count-badge'}
      data-testid="inbox-count"
      aria-label={`${count} ${count === 1 ? 'decision' : 'decisions'} waiting`}
    >
      {count}
    </span>
  );
}

export function LeftRail() {
  const name = useStore((s) => s.project?.name ?? '');
  const root = useStore((s) => s.project?.root ?? '');
  const screen = useStore((s) => s.screen);

  return (
    <aside className="rail">
      <div className="rail-project" title={root}>
        <span className="brand">Baton</span>
        <span className="rail-project-name">{name}</span>
      </div>
      <nav aria-label="Views">
        <ul className="rail-nav" role="list">
          {LINKS.map(({ screen: target, label }) => (
            <li key={target}>
              <a href={hrefFor(target)} className="rail-link" data-testid={`nav-${target}`} aria-current={screen === target ? 'page' : undefined}>
                <span>{label}</span>
                {target === 'problems' && <ProblemsBadge />}
                {target === 'inbox' && <InboxBadge />}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
