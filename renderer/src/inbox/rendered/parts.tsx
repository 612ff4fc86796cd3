/** The small pieces every rendered view uses: change marks, sections, and the "other fields" note. */
import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../components/icon';
import type { Mark } from './compare';

const MARK_LOOK: Record<Exclude<Mark, null>, { icon: IconName; word: string }> = {
  added: { icon: 'plus', word: 'new' },
  removed: { icon: 'minus', word: 'removed' },
  changed: { icon: 'diff', word: 'changed' },
};

/** A mark is never colour alone: an icon and a word go with the tint. */
export function ChangeMark({ mark }: { mark: Mark }) {
  if (mark === null) return null;
  const look = MARK_LOOK[mark];
  return (
    <span className={`change-mark change-${mark}`} data-testid="change-mark">
      <Icon name={look.icon} />
      {look.word}
    </span>
  );
}

/** The class that tints a marked row or block. */
export const markClass = (mark: Mark, base = ''): string => [base, mark ? `marked marked-${mark}` : ''].filter(Boolean).join(' ');

/** A missing value reads as a dash, so an empty cell is never mistaken for an unrendered one. */
export const orDash = (text: string | null): string => (text !== null && text.trim() !== '' ? text : '—');

export function Section({ title, children, mark = null }: { title: string; children: ReactNode; mark?: Mark }) {
  return (
    <section className={markClass(mark, 'rendered-section')} aria-label={title}>
      <h5 className="rendered-section-title">
        {title} <ChangeMark mark={mark} />
      </h5>
      {children}
    </section>
  );
}

/** An empty list says so, rather than leaving a heading with nothing under it. */
export const None = ({ what }: { what: string }) => <p className="muted">No {what}.</p>;

/** The honesty note: the fields this view does not show, by path. */
export function OtherFields({ others }: { others: readonly string[] }) {
  if (others.length === 0) return null;
  return (
    <p className="rendered-others" data-testid="artifact-other-fields">
      <Icon name="warning" /> Other fields: <span className="mono">{others.join(', ')}</span> — see JSON.
    </p>
  );
}
