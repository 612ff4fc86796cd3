/**
 * The command palette (Ctrl/Cmd+K): a modal dialog with a combobox over a listbox of commands.
 * Typing filters, ArrowUp/ArrowDown move the highlighted option (aria-activedescendant: the focus
 * stays in the field), Enter runs it, Escape closes and focus returns where it was.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { filterCommands, type Command } from '../lib/commands';
import { useDialogFocus } from '../components/use-dialog-focus';

interface Props {
  readonly commands: readonly Command[];
  readonly onRun: (command: Command) => void;
  readonly onClose: () => void;
}

export function CommandPalette({ commands, onRun, onClose }: Props) {
  const base = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const { ref, onKeyDown: trapTab } = useDialogFocus<HTMLDivElement>(onClose);
  const list = useRef<HTMLUListElement>(null);
  const shown = useMemo(() => filterCommands(commands, query), [commands, query]);
  const current = shown[Math.min(active, shown.length - 1)] ?? null;
  const optionId = (command: Command) => `${base}-option-${command.id}`;

  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + 8, PageUp: active - 8 };
    if (event.key in moves && shown.length > 0) {
      event.preventDefault();
      setActive(Math.max(0, Math.min(shown.length - 1, moves[event.key]!)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (current) onRun(current);
    } else if (event.key === 'Escape') {
      // Only the palette closes, not a drawer open under it.
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else trapTab(event);
  };

  return (
    <div className="dialog-backdrop palette-backdrop" onClick={onClose}>
      <div
        ref={ref}
        className="dialog palette"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${base}-title`}
        data-testid="command-palette"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onClick={(e) => e.stopPropagation()}
      >
        <h2 className="visually-hidden" id={`${base}-title`}>
          Command palette
        </h2>
        <input
          data-autofocus
          className="palette-input"
          data-testid="palette-input"
          type="text"
          role="combobox"
          aria-label="Go to a screen, feature, item or decision, or run an action"
          aria-expanded="true"
          aria-controls={`${base}-list`}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current) : undefined}
          placeholder="Type a screen, feature, item, gate or action…"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
        />
        <ul ref={list} className="palette-list" id={`${base}-list`} role="listbox" aria-label="Commands" data-testid="palette-list">
          {shown.map((command) => (
            <li
              key={command.id}
              id={optionId(command)}
              role="option"
              aria-selected={command === current}
              className="palette-option"
              data-testid={`palette-option-${command.id}`}
              onMouseMove={() => setActive(shown.indexOf(command))}
              onClick={() => onRun(command)}
            >
              <span className="palette-label">{command.label}</span>
              <span className="palette-hint">{command.hint}</span>
            </li>
          ))}
        </ul>
        {shown.length === 0 && (
          <p className="palette-empty muted" role="status" data-testid="palette-empty">
            Nothing matches “{query}”: try a screen (Board, Inbox…), an item id (T3) or a gate (spec).
          </p>
        )}
      </div>
    </div>
  );
}
