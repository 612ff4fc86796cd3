/**
 * A line diff of a frozen (approved) artifact against its current text: a unified patch for the
 * CLI and logs, and aligned rows for a side-by-side view. Removed and added runs that meet are
 * paired line by line as `changed`, which is how a reader sees an edit.
 */
import { createTwoFilesPatch, diffLines } from 'diff';

export type DiffRowKind = 'same' | 'removed' | 'added' | 'changed';

export interface DiffRow {
  readonly left: string | null;
  readonly right: string | null;
  readonly kind: DiffRowKind;
}

export interface ArtifactDiff {
  readonly unified: string;
  readonly rows: readonly DiffRow[];
}

/** A change's lines, without the empty string a trailing newline leaves after split. */
const linesOf = (value: string): string[] => {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

export const artifactDiff = (before: string, after: string, name: string): ArtifactDiff => {
  const unified = createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, 'approved', 'current');
  const rows: DiffRow[] = [];
  let removed: string[] = [];
  const flush = (added: string[]): void => {
    const pairs = Math.max(removed.length, added.length);
    for (let i = 0; i < pairs; i += 1) {
      const left = removed[i] ?? null;
      const right = added[i] ?? null;
      rows.push({ left, right, kind: left !== null && right !== null ? 'changed' : left !== null ? 'removed' : 'added' });
    }
    removed = [];
  };
  for (const change of diffLines(before, after)) {
    const lines = linesOf(change.value);
    if (change.removed) removed.push(...lines);
    else if (change.added) flush(lines);
    else {
      flush([]);
      for (const line of lines) rows.push({ left: line, right: line, kind: 'same' });
    }
  }
  flush([]);
  return { unified, rows };
};
