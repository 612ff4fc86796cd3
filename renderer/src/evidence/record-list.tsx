/**
 * The ledger's records as a windowed list: seq, time, type, actor, subject. Arrow keys, Home and
 * End move between records; Enter opens one. A record opened from elsewhere (a link to
 * `#/evidence/<seq>`) is scrolled to the middle of the list, focused and marked, and kept there
 * while the screen settles around it (the banner's verdict arriving resizes the list) until the
 * person scrolls.
 */
import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { LedgerRecord } from '../../../shared/ledger';
import { Icon } from '../components/icon';
import { friendlyTime } from '../lib/format';
import { subjectTitle, subjectWords } from './record-words';
import { useVirtualRows } from './use-virtual-rows';

export const ROW_HEIGHT = 32;

interface RowProps {
  readonly record: LedgerRecord;
  readonly selected: boolean;
  /** Roving tab stop: one row is in the Tab order, arrows reach the rest. */
  readonly tabbable: boolean;
  /** Where verification found the chain broken. */
  readonly broken: boolean;
  /** Opened by a link: marked for a moment so the eye finds it. */
  readonly linked: boolean;
  onOpen(seq: number): void;
}

const Row = memo(function Row({ record, selected, tabbable, broken, linked, onOpen }: RowProps) {
  const when = friendlyTime(record.at);
  return (
    <button
      type="button"
      className={broken ? 'record-row record-broken' : 'record-row'}
      data-testid={`ledger-record-${record.seq}`}
      data-seq={record.seq}
      aria-current={selected ? 'true' : undefined}
      data-linked={linked ? 'true' : undefined}
      tabIndex={tabbable ? 0 : -1}
      onClick={() => onOpen(record.seq)}
    >
      <span className="record-seq mono">
        {broken && <Icon name="red" />}#{record.seq}
        {broken && <span className="visually-hidden"> broken here</span>}
      </span>
      <span className="record-time" title={record.at}>
        {when ? when.absolute : record.at}
      </span>
      <span className="record-type mono">{record.type}</span>
      <span className="record-actor" title={`${record.actor.kind}: ${record.actor.id}`}>
        {record.actor.id}
      </span>
      <span className="record-subject" title={subjectTitle(record.subject)} data-testid="record-subject">
        {subjectWords(record.subject)}
      </span>
    </button>
  );
});

interface Props {
  readonly records: readonly LedgerRecord[];
  readonly total: number;
  readonly selected: number | null;
  readonly brokenAt: number | null;
  onOpen(seq: number): void;
}

export function RecordList({ records, total, selected, brokenAt, onOpen }: Props) {
  const { ref, start, end, totalHeight, height, scrollToIndex } = useVirtualRows<HTMLDivElement>(records.length, ROW_HEIGHT);
  const focusSeq = useRef<number | null>(null);
  // The record chosen here (a click, a key): already in view, nothing to reveal.
  const chosenHere = useRef<number | null>(null);
  // The selection already brought into view, and the row kept in the middle until the person scrolls.
  const revealed = useRef<number | null>(null);
  const pinned = useRef<number | null>(null);
  const [linked, setLinked] = useState<number | null>(null);
  const selectedIndex = selected === null ? -1 : records.findIndex((r) => r.seq === selected);
  // With nothing selected the first row takes Tab, so the list is reachable by keyboard.
  const tabbable = selectedIndex >= 0 ? selected : (records[0]?.seq ?? null);

  const open = useCallback(
    (seq: number) => {
      chosenHere.current = seq;
      onOpen(seq);
    },
    [onOpen],
  );

  // A record opened from elsewhere, once it is loaded: to the middle, focused and marked. Scrolling
  // only as little as needed left it at the bottom edge, where a banner growing above hid it (issue 34).
  useEffect(() => {
    if (selected === null) revealed.current = pinned.current = null;
    if (selected === null || selectedIndex < 0 || revealed.current === selected) return;
    revealed.current = selected;
    if (chosenHere.current === selected) return;
    pinned.current = selectedIndex;
    focusSeq.current = selected;
    setLinked(selected);
    scrollToIndex(selectedIndex, 'center');
  }, [selected, selectedIndex, scrollToIndex]);

  // The list resized while the linked record is pinned (the banner's verdict, the detail opening): to the middle again.
  useEffect(() => {
    if (pinned.current !== null) scrollToIndex(pinned.current, 'center');
  }, [height, scrollToIndex]);
  const unpin = () => {
    pinned.current = null;
  };

  // Focus follows the keyboard once the row it moved to is rendered.
  useEffect(() => {
    if (focusSeq.current === null) return;
    const row = ref.current?.querySelector<HTMLElement>(`[data-seq="${focusSeq.current}"]`);
    if (row) {
      row.focus({ preventScroll: true });
      focusSeq.current = null;
    }
  });

  const onKeyDown = (event: KeyboardEvent) => {
    const current = Number((document.activeElement as HTMLElement | null)?.dataset['seq'] ?? NaN);
    const index = records.findIndex((r) => r.seq === current);
    if (index < 0) return;
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: records.length - 1,
      PageDown: index + 10,
      PageUp: index - 10,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(records.length - 1, moves[event.key]!));
    focusSeq.current = records[next]!.seq;
    scrollToIndex(next);
    open(records[next]!.seq);
  };

  return (
    <div className="record-list">
      <div className="record-head" aria-hidden="true">
        <span>Seq</span>
        <span>Time</span>
        <span>Type</span>
        <span>Actor</span>
        <span>Subject</span>
      </div>
      <div
        ref={ref}
        className="record-scroll"
        data-testid="ledger-scroll"
        onKeyDown={onKeyDown}
        onKeyDownCapture={unpin}
        onWheel={unpin}
        onPointerDown={unpin}
        onTouchStart={unpin}
      >
        <div className="record-spacer" style={{ height: totalHeight }}>
          <div
            role="list"
            aria-label={`Ledger records, ${records.length} of ${total} loaded`}
            className="record-window"
            style={{ transform: `translateY(${start * ROW_HEIGHT}px)` }}
          >
            {records.slice(start, end).map((record, i) => (
              <div role="listitem" key={record.seq} aria-setsize={total} aria-posinset={start + i + 1} className="record-item">
                <Row
                  record={record}
                  selected={record.seq === selected}
                  tabbable={record.seq === tabbable}
                  broken={record.seq === brokenAt}
                  linked={record.seq === selected && record.seq === linked}
                  onOpen={open}
                />
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
