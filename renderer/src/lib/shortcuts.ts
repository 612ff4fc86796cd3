/**
 * Every keyboard shortcut the workbench has, in one list: the `?` overlay shows it, and each entry
 * names the handler that implements it, so a shortcut added there is added here.
 */

/** "Cmd" on macOS, "Ctrl" elsewhere: how Ctrl/Cmd shortcuts are written on this machine. */
export const modKey = (platform: string): 'Cmd' | 'Ctrl' => (/mac|iphone|ipad/i.test(platform) ? 'Cmd' : 'Ctrl');

/** This machine's: Ctrl unless the browser says macOS (or there is no browser, as in a server render). */
export const hostModKey = (): 'Cmd' | 'Ctrl' => modKey(typeof navigator === 'undefined' ? '' : navigator.platform);

/** True when the key goes to a text field (typing `?` there types it). */
export function isTextTarget(target: { readonly tagName?: string; readonly isContentEditable?: boolean; readonly type?: string } | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes((target.type ?? 'text').toLowerCase());
}

export interface Shortcut {
  /** Keys, each shown as one <kbd>; "Mod" becomes Ctrl or Cmd. */
  readonly keys: readonly string[];
  readonly does: string;
}

export interface ShortcutGroup {
  readonly where: string;
  readonly shortcuts: readonly Shortcut[];
}

export const SHORTCUTS: readonly ShortcutGroup[] = [
  {
    where: 'Everywhere',
    shortcuts: [
      { keys: ['Mod', 'K'], does: 'Open the command palette: any screen, feature, item, decision or action' }, // workbench/use-global-shortcuts.ts
      { keys: ['?'], does: 'Show these shortcuts (outside a text field)' }, // workbench/use-global-shortcuts.ts
      { keys: ['Mod', 'J'], does: 'Show or hide the live run panel' }, // run/run-controls.tsx
      { keys: ['Esc'], does: 'Close the dialog, drawer or palette on top; focus returns where it was' }, // components/use-dialog-focus.ts
    ],
  },
  {
    where: 'Command palette',
    shortcuts: [
      { keys: ['↑', '↓'], does: 'Move between commands' },
      { keys: ['Enter'], does: 'Run the highlighted command' },
    ],
  },
  {
    where: 'Board',
    shortcuts: [
      { keys: ['↑', '↓'], does: 'Move between cards in a column (also Page Up/Down, Home, End)' }, // board/board-column.tsx
      { keys: ['←', '→'], does: 'Move to the next column' },
      { keys: ['Enter'], does: "Open the card's drawer" },
    ],
  },
  {
    where: 'Inbox',
    shortcuts: [
      { keys: ['↑', '↓'], does: 'Move through the list, opening each entry (also Page Up/Down, Home, End)' }, // inbox/inbox-view.tsx
      { keys: ['Enter'], does: 'Open the focused entry' },
    ],
  },
  {
    where: 'Tabs (the item drawer)',
    shortcuts: [{ keys: ['←', '→'], does: 'Move between tabs (also Home, End)' }], // components/tabs.tsx
  },
  {
    where: 'Evidence',
    shortcuts: [{ keys: ['↑', '↓'], does: 'Open the previous or next record (also Page Up/Down, Home, End)' }], // evidence/record-list.tsx
  },
  {
    where: 'Branches',
    shortcuts: [
      { keys: ['↑', '↓'], does: 'Move between branches (also Home, End)' }, // branches/branch-tree-view.tsx
      { keys: ['←', '→'], does: 'Collapse or expand a branch' },
      { keys: ['Enter'], does: 'Open the branch' },
    ],
  },
  {
    where: 'Live run panel edge',
    shortcuts: [{ keys: ['↑', '↓'], does: 'Make the panel taller or shorter (also Page Up/Down, Home, End)' }], // run/panel-resizer.tsx
  },
  {
    where: 'New feature, reasons and amendments',
    shortcuts: [{ keys: ['Mod', 'Enter'], does: 'Send the form' }], // intake/new-feature-dialog.tsx, components/reason-dialog.tsx, board/amendment-dialog.tsx
  },
];

/** A shortcut's keys as written on this machine ("Ctrl+K", "Cmd+K"). */
export const keysText = (keys: readonly string[], mod: string): string => (keys[0] === 'Mod' ? [mod, ...keys.slice(1)].join('+') : keys.join(' / '));
