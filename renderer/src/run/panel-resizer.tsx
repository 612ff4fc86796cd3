/**
 * The separator on the live run panel's top edge: drag it, or focus it and use ArrowUp/ArrowDown
 * (a step), PageUp/PageDown (four) and Home/End (smallest, largest), as the ARIA window splitter does.
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { clampHeight, keyedHeight } from './panel-size';
import type { PanelSizeState } from './use-panel-size';

export function PanelResizer({ panel, controls }: { panel: PanelSizeState; controls: string }) {
  const { height, bounds, setHeight } = panel;
  // Where the drag started: the pointer's y and the height then (the panel grows as the pointer goes up).
  const drag = useRef<{ y: number; height: number } | null>(null);

  const onKeyDown = (event: KeyboardEvent) => {
    const next = keyedHeight(event.key, height, bounds);
    if (next === null) return;
    event.preventDefault();
    setHeight(next);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault(); // no text selection while dragging
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    drag.current = { y: event.clientY, height };
  };
  const onPointerMove = (event: PointerEvent) => {
    if (drag.current) setHeight(clampHeight(drag.current.height + drag.current.y - event.clientY, bounds));
  };
  const onPointerEnd = () => {
    drag.current = null;
  };

  return (
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the live run panel"
      aria-controls={controls}
      aria-valuenow={height}
      aria-valuemin={bounds.min}
      aria-valuemax={bounds.max}
      aria-valuetext={`${height} pixels tall`}
      tabIndex={0}
      className="panel-resizer"
      data-testid="run-panel-resizer"
      title="Drag to resize (or focus and use the arrow keys)"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onLostPointerCapture={onPointerEnd}
    />
  );
}
