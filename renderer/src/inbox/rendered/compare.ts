/**
 * Marks for the "Changes since approval" view: each part of one version (a field, a row, a
 * section) against the same part of the other, so both rendered versions say what differs.
 */

/** Which version a view shows: the one approved earlier, or the file as it is now. */
export type Side = 'approved' | 'now';

export type Mark = 'added' | 'removed' | 'changed' | null;

/** The other version a view is compared with; absent outside the changes view. */
export interface Against<T> {
  readonly side: Side;
  readonly other: T;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** `mine` against `theirs`, its counterpart in the other version (undefined: the other version has none). */
export function markOf<T>(mine: T, theirs: T | undefined, side: Side | undefined): Mark {
  if (side === undefined) return null;
  if (theirs === undefined) return side === 'now' ? 'added' : 'removed';
  return same(mine, theirs) ? null : 'changed';
}

/** A field of the document against the same field of the other version. */
export const fieldMark = <D, K extends keyof D>(doc: D, key: K, against: Against<D> | undefined): Mark =>
  against ? markOf(doc[key], against.other[key], against.side) : null;

/**
 * An entry of a list against its counterpart: the entry with the same key (a name or an id), or,
 * for an entry without one, an equal entry.
 */
export function entryMark<T>(entry: T, others: readonly T[] | null | undefined, key: (t: T) => string | null, side: Side | undefined): Mark {
  if (side === undefined) return null;
  const k = key(entry);
  const counterpart = k === null ? others?.find((o) => same(o, entry)) : others?.find((o) => key(o) === k);
  return markOf(entry, counterpart, side);
}
