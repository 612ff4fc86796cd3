/**
 * One artifact's diff, frozen (approved) against current, unified or side by side. Changed lines
 * carry a sign and a word as well as a colour; long unchanged runs fold behind a button.
 */
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import {
  foldUnchanged,
  isSplitChange,
  isUnifiedChange,
  lineDiff,
  type LineKind,
  type Segment,
  type SplitCell,
  type SplitRow,
  type UnifiedRow,
} from '../lib/line-diff';
import { useStore } from '../store/store';
import type { DiffMode } from '../store/ui-slice';

const SIGN: Record<LineKind, string> = { same: ' ', added: '+', removed: '−' };
const WORD: Record<LineKind, string> = { same: '', added: 'added', removed: 'removed' };

function Sign({ kind }: { kind: LineKind }) {
  return (
    <td className={`diff-sign diff-${kind}`} aria-hidden={kind === 'same' ? true : undefined}>
      {SIGN[kind]}
      {kind !== 'same' && <span className="visually-hidden"> {WORD[kind]}</span>}
    </td>
  );
}

function UnifiedLine({ row }: { row: UnifiedRow }) {
  return (
    <tr className={`diff-line diff-${row.kind}`}>
      <td className="diff-no">{row.oldNo ?? ''}</td>
      <td className="diff-no">{row.newNo ?? ''}</td>
      <Sign kind={row.kind} />
      <td className="diff-text">{row.text}</td>
    </tr>
  );
}

function SplitHalf({ cell }: { cell: SplitCell | null }) {
  if (!cell) {
    return (
      <>
        <td className="diff-no diff-empty" />
        <td className="diff-sign diff-empty" />
        <td className="diff-text diff-empty" />
      </>
    );
  }
  return (
    <>
      <td className={`diff-no diff-${cell.kind}`}>{cell.no}</td>
      <Sign kind={cell.kind} />
      <td className={`diff-text diff-${cell.kind}`}>{cell.text}</td>
    </>
  );
}

function SplitLine({ row }: { row: SplitRow }) {
  return (
    <tr className="diff-line">
      <SplitHalf cell={row.left} />
      <SplitHalf cell={row.right} />
    </tr>
  );
}

function Segments<T>({
  segments,
  columns,
  renderRow,
  rows,
}: {
  segments: readonly Segment<T>[];
  columns: number;
  rows: readonly T[];
  renderRow: (row: T, index: number) => ReactNode;
}) {
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(new Set());
  return (
    <>
      {segments.map((segment, i) => {
        if (segment.kind === 'rows') return <Fragment key={i}>{segment.rows.map((row, j) => renderRow(row, j))}</Fragment>;
        if (unfolded.has(segment.start)) {
          return <Fragment key={i}>{rows.slice(segment.start, segment.start + segment.count).map((row, j) => renderRow(row, j))}</Fragment>;
        }
        return (
          <tr key={i} className="diff-fold">
            <td colSpan={columns}>
              <button type="button" className="button button-quiet" onClick={() => setUnfolded(new Set([...unfolded, segment.start]))}>
                Show {segment.count} unchanged lines
              </button>
            </td>
          </tr>
        );
      })}
    </>
  );
}

interface Props {
  /** The artifact's name, for the table's label. */
  readonly name: string;
  readonly before: string;
  readonly after: string;
  /** Overrides the person's chosen mode (e.g. a narrow panel). */
  readonly mode?: DiffMode;
  /** What the two sides are (default: the approved version and the current one). */
  readonly labels?: { readonly before: string; readonly after: string };
}

const APPROVED_CURRENT = { before: 'Approved', after: 'Current' };

export function DiffTable({ name, before, after, mode: forced, labels = APPROVED_CURRENT }: Props) {
  const chosen = useStore((s) => s.diffMode);
  const mode = forced ?? chosen;
  const diff = useMemo(() => lineDiff(before, after), [before, after]);
  const unifiedSegments = useMemo(() => foldUnchanged(diff.unified, isUnifiedChange), [diff]);
  const splitSegments = useMemo(() => foldUnchanged(diff.split, isSplitChange), [diff]);

  if (diff.added === 0 && diff.removed === 0) {
    return (
      <p className="muted diff-none">
        No line differs: the {labels.after.toLowerCase()} text matches the {labels.before.toLowerCase()} version.
      </p>
    );
  }
  return (
    <div className="diff" data-mode={mode}>
      <p className="diff-stats">
        <span className="diff-stat-added">+{diff.added} added</span> <span className="diff-stat-removed">−{diff.removed} removed</span>
      </p>
      <div className="diff-scroll">
        {mode === 'unified' ? (
          <table
            className="diff-table diff-unified"
            aria-label={`Changes to ${name}, ${labels.before.toLowerCase()} version against ${labels.after.toLowerCase()}`}
          >
            <colgroup>
              <col className="diff-col-no" />
              <col className="diff-col-no" />
              <col className="diff-col-sign" />
              <col />
            </colgroup>
            <thead className="visually-hidden">
              <tr>
                <th scope="col">{labels.before} line</th>
                <th scope="col">{labels.after} line</th>
                <th scope="col">Change</th>
                <th scope="col">Text</th>
              </tr>
            </thead>
            <tbody>
              <Segments
                segments={unifiedSegments}
                rows={diff.unified}
                columns={4}
                renderRow={(row, j) => <UnifiedLine key={`u${row.oldNo}-${row.newNo}-${j}`} row={row} />}
              />
            </tbody>
          </table>
        ) : (
          <table
            className="diff-table diff-split"
            aria-label={`Changes to ${name}: ${labels.before.toLowerCase()} on the left, ${labels.after.toLowerCase()} on the right`}
          >
            <colgroup>
              <col className="diff-col-no" />
              <col className="diff-col-sign" />
              <col />
              <col className="diff-col-no" />
              <col className="diff-col-sign" />
              <col />
            </colgroup>
            <thead>
              <tr>
                <th scope="colgroup" colSpan={3}>
                  {labels.before}
                </th>
                <th scope="colgroup" colSpan={3}>
                  {labels.after}
                </th>
              </tr>
            </thead>
            <tbody>
              <Segments
                segments={splitSegments}
                rows={diff.split}
                columns={6}
                renderRow={(row, j) => <SplitLine key={`s${row.left?.no}-${row.right?.no}-${j}`} row={row} />}
              />
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

/** The one unified/split switch of a screen. */
export function DiffModeToggle() {
  const mode = useStore((s) => s.diffMode);
  const setMode = useStore((s) => s.setDiffMode);
  return (
    <div className="segmented" role="group" aria-label="Diff layout">
      <button type="button" className="segment" data-testid="diff-mode-unified" aria-pressed={mode === 'unified'} onClick={() => setMode('unified')}>
        Unified
      </button>
      <button type="button" className="segment" data-testid="diff-mode-split" aria-pressed={mode === 'split'} onClick={() => setMode('split')}>
        Side by side
      </button>
    </div>
  );
}
