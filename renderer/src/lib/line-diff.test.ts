import { describe, expect, it } from 'vitest';
import { foldUnchanged, isUnifiedChange, lineDiff } from './line-diff';

describe('lineDiff', () => {
  it('numbers both sides and pairs a replaced line with its replacement', () => {
    const diff = lineDiff('a\nb\nc\n', 'a\nB\nc\nd\n');
    expect(diff.added).toBe(2);
    expect(diff.removed).toBe(1);
    expect(diff.unified.map((r) => `${r.kind}:${r.oldNo ?? '-'}:${r.newNo ?? '-'}:${r.text}`)).toEqual([
      'same:1:1:a',
      'removed:2:-:b',
      'added:-:2:B',
      'same:3:3:c',
      'added:-:4:d',
    ]);
    expect(diff.split.map((r) => `${r.left?.text ?? '∅'}|${r.right?.text ?? '∅'}`)).toEqual(['a|a', 'b|B', 'c|c', '∅|d']);
  });

  it('reports no change for equal texts', () => {
    const diff = lineDiff('x\n', 'x\n');
    expect(diff.added + diff.removed).toBe(0);
  });
});

describe('foldUnchanged', () => {
  it('keeps three lines of context around a change and folds the rest', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 10\n', 'line ten\n');
    const segments = foldUnchanged(lineDiff(before, after).unified, isUnifiedChange);
    expect(segments.map((s) => (s.kind === 'fold' ? `fold ${s.count}` : `rows ${s.rows.length}`))).toEqual(['fold 6', 'rows 8', 'fold 7']);
  });
});
