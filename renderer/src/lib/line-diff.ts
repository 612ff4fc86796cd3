/**
 * Line diffs for the spec diff view and the inbox: `diffLines` from the `diff` package, shaped
 * into rows for a unified view (one column) and a split view (old left, new right), with long
 * unchanged runs folded so the change is what a person sees first.
 */
import { diffLines } from 'diff';

export type LineKind = 'same' | 'added' | 'removed';

export interface UnifiedRow {
  readonly kind: LineKind;
  readonly oldNo: number | null;
  readonly newNo: number | null;
  readonly text: string;
}

export interface SplitCell {
  readonly no: number;
  readonly text: string;
  readonly kind: LineKind;
}

export interface SplitRow {
  readonly left: SplitCell | null;
  readonly right: SplitCell | null;
}

export interface LineDiff {
  readonly unified: readonly UnifiedRow[];
  readonly split: readonly SplitRow[];
  readonly added: number;
  readonly removed: number;
}

const linesOf = (value: string): string[] => {
  const lines = value.split('\n');
  // diffLines keeps each line's newline; the last element after the final "\n" is empty.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

export function lineDiff(before: string, after: string): LineDiff {
  const unified: UnifiedRow[] = [];
  const split: SplitRow[] = [];
  let oldNo = 1;
  let newNo = 1;
  let added = 0;
  let removed = 0;
  // Removed lines wait here so the added lines that replace them can sit beside them.
  let pendingRemoved: SplitCell[] = [];

  const flushRemoved = () => {
    for (const cell of pendingRemoved) split.push({ left: cell, right: null });
    pendingRemoved = [];
  };

  for (const change of diffLines(before, after)) {
    const lines = linesOf(change.value);
    if (change.removed) {
      for (const text of lines) {
        unified.push({ kind: 'removed', oldNo, newNo: null, text });
        pendingRemoved.push({ no: oldNo, text, kind: 'removed' });
        oldNo += 1;
        removed += 1;
      }
    } else if (change.added) {
      for (const text of lines) {
        unified.push({ kind: 'added', oldNo: null, newNo, text });
        const left = pendingRemoved.shift() ?? null;
        split.push({ left, right: { no: newNo, text, kind: 'added' } });
        newNo += 1;
        added += 1;
      }
      flushRemoved();
    } else {
      flushRemoved();
      for (const text of lines) {
        unified.push({ kind: 'same', oldNo, newNo, text });
        split.push({ left: { no: oldNo, text, kind: 'same' }, right: { no: newNo, text, kind: 'same' } });
        oldNo += 1;
        newNo += 1;
      }
    }
  }
  flushRemoved();
  return { unified, split, added, removed };
}

/** A run of rows to show, or a fold standing for `count` unchanged rows starting at `start`. */
export type Segment<T> = { readonly kind: 'rows'; readonly rows: readonly T[] } | { readonly kind: 'fold'; readonly start: number; readonly count: number };

/**
 * Keeps `context` unchanged rows around every change and folds the rest. A fold shorter than
 * three rows is not worth a click, so it is shown instead.
 */
export function foldUnchanged<T>(rows: readonly T[], isChange: (row: T) => boolean, context = 3): Segment<T>[] {
  const keep = rows.map(() => false);
  rows.forEach((row, i) => {
    if (!isChange(row)) return;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j += 1) keep[j] = true;
  });
  const segments: Segment<T>[] = [];
  let i = 0;
  while (i < rows.length) {
    let j = i;
    const kept = keep[i];
    while (j < rows.length && keep[j] === kept) j += 1;
    if (kept || j - i < 3) segments.push({ kind: 'rows', rows: rows.slice(i, j) });
    else segments.push({ kind: 'fold', start: i, count: j - i });
    i = j;
  }
  // Adjacent row runs (a short fold shown inline) read as one block.
  return segments.reduce<Segment<T>[]>((merged, segment) => {
    const last = merged[merged.length - 1];
    if (last?.kind === 'rows' && segment.kind === 'rows') merged[merged.length - 1] = { kind: 'rows', rows: [...last.rows, ...segment.rows] };
    else merged.push(segment);
    return merged;
  }, []);
}

export const isUnifiedChange = (row: UnifiedRow): boolean => row.kind !== 'same';
export const isSplitChange = (row: SplitRow): boolean => row.left?.kind !== 'same' || row.right?.kind !== 'same';
