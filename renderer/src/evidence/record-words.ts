/**
 * A ledger record in words, for the Evidence screen: its subject said once (the cycle id
 * `F-1/T3#2` repeats the feature and the item, so only its round is kept), and its data as labelled
 * fields a reviewer can read (nested objects as nested lists, lists of words joined, long text
 * wrapped, hashes in mono). Pure: the screen renders what this returns; the raw JSON stays one click away.
 */
import type { Subject } from '../../../shared/ledger';

/** `F-1/T3` (round 1) or `F-1/T3#2` (a retry's round), as the orchestrator names cycles. */
const CYCLE_ID = /^(.+)\/([^/#]+)(?:#(\d+))?$/;

/** The subject's parts, each said once: feature · story · gate · item (with its round) · anything else. */
export function subjectParts(subject: Subject): string[] {
  const { feature, story, gate, item, cycle } = subject;
  const parts = [feature, story, gate].filter((p): p is string => Boolean(p));
  const match = cycle ? CYCLE_ID.exec(cycle) : null;
  if (!cycle) {
    if (item) parts.push(item);
  } else if (!match || (feature && match[1] !== feature) || (item && match[2] !== item)) {
    // A cycle named some other way (a Consort `cycle-001`) or naming another subject: said as it is.
    if (item) parts.push(item);
    parts.push(cycle);
  } else if (!feature) {
    // The cycle id is the only place the feature is said: keep it whole, and the item with it.
    parts.push(cycle);
  } else {
    const round = match[3] && Number(match[3]) > 1 ? ` #${match[3]}` : '';
    parts.push(`${match[2]}${round}`);
  }
  return parts;
}

/** The subject as one line: `F-inventory · S-1 · T1`, `F-inventory · S-1 · T1 #2`, or `—` for none. */
export const subjectWords = (subject: Subject): string => subjectParts(subject).join(' · ') || '—';

/** Every field of the subject, named: the hover text, where nothing is left out. */
export const subjectTitle = (subject: Subject): string =>
  (['feature', 'story', 'gate', 'item', 'cycle'] as const)
    .filter((key) => subject[key])
    .map((key) => `${key} ${subject[key]}`)
    .join(', ');

export type FieldValue =
  /** A short value, as text. */
  | { readonly kind: 'text'; readonly text: string }
  /** Text long enough (or with line breaks) to be wrapped as a paragraph. */
  | { readonly kind: 'long'; readonly text: string }
  /** A hash or a list of them: mono, never cut. */
  | { readonly kind: 'hash'; readonly text: string }
  /** An ISO timestamp: the screen says it in the reader's time. */
  | { readonly kind: 'time'; readonly text: string }
  /** Nothing there (null, an empty list or object, an empty string): said in grey. */
  | { readonly kind: 'none'; readonly text: string }
  /** An object, or a list of objects: its own fields, nested. */
  | { readonly kind: 'fields'; readonly rows: readonly FieldRow[] };

export interface FieldRow {
  /** The key in the record's data (a list's entries: their position, from 1). */
  readonly key: string;
  readonly label: string;
  /** The label is a name from the data (a file, an id such as `AC-1`), shown as it is, in mono. */
  readonly verbatim: boolean;
  readonly value: FieldValue;
}

/** Longer than this (or with a line break), text is a paragraph rather than a value. */
export const LONG_TEXT = 80;
/** Deeper than this, a value is shown as its JSON: nothing the ledger writes nests so far. */
const MAX_DEPTH = 6;

const HASH = /^(?:sha256:)?(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
/** Words people write in capitals here, whatever the key's case. */
const CAPITALS: Readonly<Record<string, string>> = {
  ac: 'AC',
  acs: 'ACs',
  id: 'ID',
  ids: 'IDs',
  url: 'URL',
  json: 'JSON',
  sql: 'SQL',
  pid: 'PID',
  red: 'RED',
  green: 'GREEN',
  po: 'PO',
  usd: 'USD',
};

/** A field's name (`agentExitCode`, `feature_id`), not a name from the data (`stories/S-1/story.json`, `AC-1`). */
const FIELD_NAME = /^[a-z][a-zA-Z0-9]*(?:_[a-zA-Z0-9]+)*$/;

/** `agentExitCode` → `Agent exit code`, `feature_id` → `Feature ID`, `rejectedRed` → `Rejected RED`. */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => CAPITALS[word.toLowerCase()] ?? word.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Milliseconds as people read them: `350 ms`, `4.2 s`, `8 min 22 s`, `1 h 5 min`. */
export function durationWords(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (ms < 60_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

const isScalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value);

const scalarText = (value: string | number | boolean): string =>
  typeof value === 'number' ? value.toLocaleString('en-US') : typeof value === 'boolean' ? (value ? 'yes' : 'no') : value;

function textValue(text: string): FieldValue {
  if (text.trim() === '') return { kind: 'none', text: 'empty' };
  if (HASH.test(text)) return { kind: 'hash', text };
  if (ISO_TIME.test(text) && !Number.isNaN(Date.parse(text))) return { kind: 'time', text };
  return text.length > LONG_TEXT || text.includes('\n') ? { kind: 'long', text } : { kind: 'text', text };
}

function valueOf(value: unknown, depth: number): FieldValue {
  if (value === null || value === undefined) return { kind: 'none', text: 'none' };
  if (typeof value === 'string') return textValue(value);
  if (isScalar(value)) return { kind: 'text', text: scalarText(value) };
  if (depth >= MAX_DEPTH) return { kind: 'long', text: JSON.stringify(value) };
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: 'none', text: 'none' };
    if (value.every(isScalar)) {
      if (value.every((v) => typeof v === 'string' && HASH.test(v))) return { kind: 'hash', text: value.join(', ') };
      const text = value.map(scalarText).join(', ');
      return text.length > LONG_TEXT ? { kind: 'long', text } : { kind: 'text', text };
    }
    return { kind: 'fields', rows: value.map((entry, i) => ({ key: String(i + 1), label: `${i + 1}.`, verbatim: false, value: valueOf(entry, depth + 1) })) };
  }
  if (typeof value === 'object') {
    const rows = rowsOf(value as Record<string, unknown>, depth + 1);
    return rows.length === 0 ? { kind: 'none', text: 'none' } : { kind: 'fields', rows };
  }
  return { kind: 'text', text: String(value) };
}

function rowsOf(data: Readonly<Record<string, unknown>>, depth: number): FieldRow[] {
  return Object.entries(data).map(([key, value]) => {
    // `turnMs`, `waitedMs`: a duration, said in seconds or minutes under the name without its unit.
    if (!FIELD_NAME.test(key)) return { key, label: key, verbatim: true, value: valueOf(value, depth) };
    if (/^ms$|.Ms$/.test(key) && typeof value === 'number' && Number.isFinite(value) && value >= 0) {
      const label = key === 'ms' ? 'Duration' : fieldLabel(key.slice(0, -2));
      return { key, label, verbatim: false, value: { kind: 'text', text: durationWords(value) } };
    }
    return { key, label: fieldLabel(key), verbatim: false, value: valueOf(value, depth) };
  });
}

/** A record's data as labelled rows, in the order the record keeps its keys. */
export const dataRows = (data: Readonly<Record<string, unknown>>): FieldRow[] => rowsOf(data, 0);
