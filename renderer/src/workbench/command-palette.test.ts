/**
 * The palette and the shortcuts list, rendered statically from props (the store's hooks read its
 * initial state there): a labelled modal dialog whose combobox names the highlighted option, and
 * every shortcut of the one list, written for this machine.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildCommands } from '../lib/commands';
import { SHORTCUTS } from '../lib/shortcuts';
import { CommandPalette } from './command-palette';
import { ShortcutsList } from './shortcuts-overlay';

const commands = buildCommands(null, { canChange: true, runnable: true, running: false, mod: 'Cmd' });
const noop = () => undefined;

describe('CommandPalette', () => {
  const html = renderToStaticMarkup(createElement(CommandPalette, { commands, onRun: noop, onClose: noop }));

  it('is a labelled modal dialog with a combobox over a listbox', () => {
    expect(html).toMatch(/role="dialog" aria-modal="true" aria-labelledby="([^"]+)"/);
    const label = /aria-labelledby="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(`id="${label}">Command palette</h2>`);
    expect(html).toContain('role="combobox"');
    expect(html).toContain('role="listbox"');
    expect(html.match(/role="option"/g)).toHaveLength(commands.length);
  });

  it('names the first option as the highlighted one, and only it', () => {
    const active = /aria-activedescendant="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(`id="${active}" role="option" aria-selected="true"`);
    expect(active).toMatch(/screen-board$/);
    expect(html.match(/aria-selected="true"/g)).toHaveLength(1);
    expect(html).toContain('Cmd+J');
  });
});

describe('ShortcutsList', () => {
  it('shows every shortcut of the list, Mod written as this machine writes it', () => {
    const html = renderToStaticMarkup(createElement(ShortcutsList, { groups: SHORTCUTS, mod: 'Cmd' }));
    const count = SHORTCUTS.reduce((n, g) => n + g.shortcuts.length, 0);
    expect(html.match(/data-testid="shortcut"/g)).toHaveLength(count);
    expect(html).toContain('<kbd>Cmd</kbd>');
    expect(html.replace(/<[^>]+>/g, '')).toContain('Cmd+KOpen the command palette');
    expect(html).not.toContain('Mod');
    for (const group of SHORTCUTS) for (const s of group.shortcuts) expect(html).toContain(s.does.replace(/'/g, '&#x27;'));
  });
});
