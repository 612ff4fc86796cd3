/** Display helpers: words for codes, human-friendly times, short hashes. */
import type { Layout } from '../../../shared/model';

const LAYOUT_LABELS: Record<Layout, string> = { baton: 'Baton', consort: 'Consort', sftdd: 'Consort (.sftdd)' };
export const layoutLabel = (layout: Layout): string => LAYOUT_LABELS[layout] ?? layout;

export const shortHash = (sha256: string): string => sha256.slice(0, 12);

/** `awaiting-gate` → `awaiting gate`, `test_list` → `test list`. */
export const humanize = (code: string): string => code.replace(/[-_]+/g, ' ');

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

export function relativeTime(date: Date, now: Date = new Date()): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return '';
}

/** A timestamp as people read it, or null when the text is not a date. */
export function friendlyTime(text: string, now: Date = new Date()): { absolute: string; relative: string } | null {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return null;
  return { absolute: dateFormat.format(date), relative: relativeTime(date, now) };
}
