/** Small stroked SVG icons. Always paired with a word: status is never colour or shape alone. */
import type { ReactElement } from 'react';

const PATHS = {
  pending: <circle cx="8" cy="8" r="5.5" />,
  red: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M5.8 5.8l4.4 4.4M10.2 5.8l-4.4 4.4" />
    </>
  ),
  green: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M5.4 8.2l1.8 1.8 3.4-3.6" />
    </>
  ),
  refactored: (
    <>
      <path d="M12.8 6.2A5 5 0 1 0 13 9.5" />
      <path d="M13.2 3.2v3.2H10" />
    </>
  ),
  skipped: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M4.2 11.8l7.6-7.6" />
    </>
  ),
  clock: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M8 5v3.2l2 1.3" />
    </>
  ),
  superseded: (
    <>
      <path d="M3 5.5h8M8.5 3l2.5 2.5L8.5 8" />
      <path d="M13 10.5H5M7.5 8L5 10.5 7.5 13" />
    </>
  ),
  minus: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M5.2 8h5.6" />
    </>
  ),
  lock: (
    <>
      <rect x="3.5" y="7" width="9" height="6.5" rx="1.2" />
      <path d="M5.5 7V5.2a2.5 2.5 0 0 1 5 0V7" />
    </>
  ),
  warning: (
    <>
      <path d="M8 2.5l6 10.5H2z" />
      <path d="M8 6.5v3M8 11.2v.3" />
    </>
  ),
  unknown: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M6.4 6.3a1.7 1.7 0 1 1 2.3 1.6c-.5.2-.7.6-.7 1.1M8 11v.2" />
    </>
  ),
  progress: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M8 2.5a5.5 5.5 0 0 1 0 11z" className="icon-fill" />
    </>
  ),
  chevron: <path d="M6 4l4 4-4 4" />,
  eye: (
    <>
      <path d="M1.8 8s2.3-4.2 6.2-4.2S14.2 8 14.2 8s-2.3 4.2-6.2 4.2S1.8 8 1.8 8z" />
      <circle cx="8" cy="8" r="1.8" />
    </>
  ),
  diff: (
    <>
      <path d="M5 2.5v6M2 5.5h6" />
      <path d="M8 12.5h6" />
    </>
  ),
  shield: (
    <>
      <path d="M8 1.8l5 1.9v4c0 3.2-2.2 5.5-5 6.5-2.8-1-5-3.3-5-6.5v-4z" />
      <path d="M5.6 8l1.7 1.7 3.1-3.3" />
    </>
  ),
  inbox: (
    <>
      <path d="M2 9.5l1.8-5.5h8.4L14 9.5V13H2z" />
      <path d="M2 9.5h3.5l1 1.5h3l1-1.5H14" />
    </>
  ),
  plus: <path d="M8 3.5v9M3.5 8h9" />,
  branch: (
    <>
      <circle cx="4.5" cy="3.5" r="1.5" />
      <circle cx="4.5" cy="12.5" r="1.5" />
      <circle cx="11.5" cy="5.5" r="1.5" />
      <path d="M4.5 5v6M11.5 7c0 2.5-2 3-7 4" />
    </>
  ),
  database: (
    <>
      <ellipse cx="8" cy="4" rx="5" ry="1.8" />
      <path d="M3 4v8c0 1 2.2 1.8 5 1.8s5-.8 5-1.8V4M3 8c0 1 2.2 1.8 5 1.8s5-.8 5-1.8" />
    </>
  ),
} satisfies Record<string, ReactElement>;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={className ? `icon ${className}` : 'icon'} viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      {PATHS[name]}
    </svg>
  );
}
