/**
 * A streaming pane (agent transcript, runner output): monospace, windowed so thousands of lines
 * stay smooth, following the newest line unless the person scrolled up to read.
 */
import { useLayoutEffect, useRef } from 'react';
import type { RunLog } from '../../../shared/run';
import { useVirtualRows } from '../evidence/use-virtual-rows';

const ROW_HEIGHT = 18;

interface Props {
  readonly title: string;
  /** What the pane shows now (the turn, the command). */
  readonly detail: string;
  readonly log: RunLog;
  readonly empty: string;
  readonly testId: string;
}

export function LogPane({ title, detail, log, empty, testId }: Props) {
  const { ref, start, end, totalHeight } = useVirtualRows<HTMLDivElement>(log.lines.length, ROW_HEIGHT, 20);
  const following = useRef(true);
  const titleId = `${testId}-title`;

  const onScroll = () => {
    const element = ref.current;
    if (element) following.current = element.scrollTop + element.clientHeight >= element.scrollHeight - ROW_HEIGHT * 2;
  };

  useLayoutEffect(() => {
    const element = ref.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [log, ref]);

  return (
    <section className="log-pane" aria-labelledby={titleId}>
      <header className="log-header">
        <h3 id={titleId}>{title}</h3>
        <span className="log-detail mono" data-testid={`${testId}-detail`} title={detail}>
          {detail}
        </span>
        {log.dropped > 0 && <span className="muted log-dropped">{log.dropped.toLocaleString('en-US')} earlier lines not kept</span>}
      </header>
      {/* A log, but not a live region: announcing every line of a test run would drown a screen reader. */}
      <div ref={ref} className="log-scroll" role="log" aria-live="off" aria-labelledby={titleId} tabIndex={0} onScroll={onScroll} data-testid={testId}>
        {log.lines.length === 0 ? (
          <p className="log-empty muted">{empty}</p>
        ) : (
          <div className="log-spacer" style={{ height: totalHeight }}>
            <div className="log-window" style={{ transform: `translateY(${start * ROW_HEIGHT}px)` }}>
              {log.lines.slice(start, end).map((line, i) => (
                <div key={log.dropped + start + i} className={line.kind === 'head' ? 'log-line log-head' : 'log-line'}>
                  {line.text || '\u00a0'}
                </div>
              ))}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
