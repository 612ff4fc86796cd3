/**
 * Tabs with the ARIA pattern: a tablist whose arrow keys, Home and End move between tabs (the
 * selected tab is the one Tab stop), each tab labelling its panel.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabSpec {
  readonly id: string;
  readonly label: string;
  readonly content: ReactNode;
}

export function Tabs({ tabs, selected, onSelect, label }: { tabs: readonly TabSpec[]; selected: string; onSelect(id: string): void; label: string }) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const index = Math.max(
    0,
    tabs.findIndex((t) => t.id === selected),
  );
  const current = tabs[index]!;

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = (moves[event.key]! + tabs.length) % tabs.length;
    onSelect(tabs[next]!.id);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };

  return (
    <div className="tabs">
      <div ref={list} role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={i === index}
            aria-controls={`${base}-panel-${tab.id}`}
            tabIndex={i === index ? 0 : -1}
            className="tab"
            data-testid={`tab-${tab.id}`}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel-${current.id}`} aria-labelledby={`${base}-tab-${current.id}`} className="tab-panel" tabIndex={0}>
        {current.content}
      </div>
    </div>
  );
}
