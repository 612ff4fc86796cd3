/**
 * The Branch tree (role=tree): one treeitem per pair, the git half and the database half side by
 * side. Keyboard as in a file tree: Up/Down move, Right opens a level or steps into it, Left
 * closes it or steps to the parent, Home/End jump, Enter or Space opens the row's schema diff.
 * One row is in the tab order at a time (roving tabindex).
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import type { PairMigrations, ProviderKind } from '../../../shared/branches';
import type { TreeRow } from '../lib/branch-tree';
import { BranchRow } from './branch-row';

interface Props {
  readonly rows: readonly TreeRow[];
  readonly provider: ProviderKind;
  /** The last migration check by pair name, or null when none is shown. */
  readonly migrations: ReadonlyMap<string, PairMigrations> | null;
  readonly selected: string | null;
  readonly onOpen: (name: string) => void;
  readonly onToggle: (name: string, collapsed: boolean) => void;
}

export function BranchTreeView({ rows, provider, migrations, selected, onOpen, onToggle }: Props) {
  const [focused, setFocused] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLLIElement>());
  // The row in the tab order: the focused one while it is visible, else the opened one, else the first.
  const tabStop = rows.find((r) => r.pair.name === focused)?.pair.name ?? rows.find((r) => r.pair.name === selected)?.pair.name ?? rows[0]?.pair.name ?? null;

  const focusRow = (name: string | undefined) => {
    if (!name) return;
    setFocused(name);
    items.current.get(name)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const index = rows.findIndex((r) => r.pair.name === tabStop);
    const row = rows[index];
    if (!row) return;
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    switch (event.key) {
      case 'ArrowDown':
        handled();
        focusRow(rows[index + 1]?.pair.name);
        break;
      case 'ArrowUp':
        handled();
        focusRow(rows[index - 1]?.pair.name);
        break;
      case 'Home':
        handled();
        focusRow(rows[0]?.pair.name);
        break;
      case 'End':
        handled();
        focusRow(rows.at(-1)?.pair.name);
        break;
      case 'ArrowRight':
        handled();
        if (row.hasChildren && !row.expanded) onToggle(row.pair.name, false);
        else if (row.expanded) focusRow(rows[index + 1]?.pair.name);
        break;
      case 'ArrowLeft':
        handled();
        if (row.expanded) onToggle(row.pair.name, true);
        else focusRow(row.parentName ?? undefined);
        break;
      case 'Enter':
      case ' ':
        handled();
        onOpen(row.pair.name);
        break;
    }
  };

  return (
    <ul role="tree" aria-label="Branch pairs" className="branch-tree" data-testid="branch-tree" onKeyDown={onKeyDown}>
      {rows.map((row) => (
        <BranchRow
          key={row.pair.name}
          row={row}
          provider={provider}
          migrations={migrations?.get(row.pair.name)?.migrations ?? null}
          selected={row.pair.name === selected}
          tabbable={row.pair.name === tabStop}
          itemRef={(el) => {
            if (el) items.current.set(row.pair.name, el);
            else items.current.delete(row.pair.name);
          }}
          onFocus={() => setFocused(row.pair.name)}
          onOpen={() => onOpen(row.pair.name)}
          onToggle={() => onToggle(row.pair.name, row.expanded)}
        />
      ))}
    </ul>
  );
}
