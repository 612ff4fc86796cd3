/**
 * The keyboard-first workbench on the Consort fixture: Ctrl+K opens the command palette, which
 * reaches every screen, an item's drawer (and its Evidence tab) and a gate in the Inbox, and
 * Escape closes it with the focus back where it was; `?` lists the shortcuts, and each one listed
 * for the screens this project has (Board, drawer tabs, Inbox, live run edge) is pressed here.
 */
import type { Page } from '@playwright/test';
import { readFixtureItems, STATUSES } from './support/fixture-data';
import { cardOf } from './support/locators';
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

const SCREENS = ['Board', 'Specs', 'Inbox', 'Gates', 'Branches', 'Evidence', 'Metrics', 'Problems', 'Settings'];

async function palette(page: Page, query: string) {
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.getByTestId('palette-input').fill(query);
  return dialog;
}

test('Ctrl+K reaches every screen, an item, its evidence and a gate; Escape closes and gives the focus back', async ({ servedPage: page }) => {
  // A proper dialog: modal, labelled, a combobox over a listbox, the highlighted option named by aria-activedescendant.
  await page.getByTestId('nav-board').focus();
  const dialog = await palette(page, '');
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  const input = page.getByTestId('palette-input');
  const options = page.getByRole('listbox', { name: 'Commands' }).getByRole('option');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await options.first().getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
  await page.keyboard.press('ArrowUp');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  // Focus stays inside: Tab does not leave the dialog.
  await page.keyboard.press('Tab');
  await expect(input).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('nav-board')).toBeFocused();

  for (const label of SCREENS) {
    await palette(page, label.toLowerCase());
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(`nav-${label.toLowerCase()}`)).toHaveAttribute('aria-current', 'page');
  }

  // An item opens its drawer on the Board; "evidence" opens the drawer's Evidence tab.
  const [item] = readFixtureItems();
  await palette(page, item!.description);
  await expect(page.getByTestId(`palette-option-item-${item!.featureId}-${item!.id}`)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-board')).toHaveAttribute('aria-current', 'page');
  const drawer = page.getByTestId('item-drawer');
  await expect(drawer).toContainText(item!.description);
  await expect(drawer.getByTestId('tab-ac')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await palette(page, `evidence ${item!.id}`);
  await page.keyboard.press('Enter');
  await expect(drawer.getByTestId('tab-evidence')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');

  // A gate opens in the Inbox; a read-only project offers it to read, not to decide, and no action that changes it.
  await palette(page, 'deploy gate F-checkout');
  await expect(page.getByTestId('palette-option-inbox-F-checkout-deploy')).toHaveText(/^Read the deploy gate of F-checkout/);
  await expect(page.getByTestId('palette-option-action-new-feature')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-inbox')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('inbox-item-F-checkout-deploy')).toHaveAttribute('aria-current', 'true');
});

test('? lists the shortcuts, and each works', async ({ servedPage: page }) => {
  await expect(page.getByTestId('palette-open')).toHaveAttribute('title', /Ctrl\+K/);
  await page.getByTestId('nav-board').focus();
  await page.keyboard.press('?');
  const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(overlay).toBeVisible();
  const listed = await overlay.getByTestId('shortcut').allInnerTexts();
  for (const words of ['Ctrl+K', '?', 'Ctrl+J', 'Esc', 'Ctrl+Enter']) expect(listed.some((text) => text.startsWith(words))).toBe(true);
  // Esc closes it and the focus returns.
  await page.keyboard.press('Escape');
  await expect(overlay).toHaveCount(0);
  await expect(page.getByTestId('nav-board')).toBeFocused();
  // `?` typed into a text field is typed, not a shortcut.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('?');
  await expect(page.getByTestId('palette-input')).toHaveValue('?');
  await expect(overlay).toHaveCount(0);
  // Ctrl+K closes the palette it opened.
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('command-palette')).toHaveCount(0);

  // Ctrl+J shows and hides the live run; its edge grows with ArrowUp and shrinks with ArrowDown.
  await page.keyboard.press('Control+j');
  await expect(page.getByTestId('run-panel')).toBeVisible();
  const edge = page.getByTestId('run-panel-resizer');
  const height = Number(await edge.getAttribute('aria-valuenow'));
  await edge.focus();
  await page.keyboard.press('ArrowDown');
  await expect(edge).not.toHaveAttribute('aria-valuenow', String(height));
  await page.keyboard.press('ArrowUp');
  await expect(edge).toHaveAttribute('aria-valuenow', String(height));
  await page.keyboard.press('Control+j');
  await expect(page.getByTestId('run-panel')).toHaveCount(0);

  // The Board: arrows move between cards and columns, Enter opens the drawer, arrows move between its tabs.
  const items = readFixtureItems();
  const status = STATUSES.find((s) => items.filter((i) => i.status === s).length >= 2)!;
  const column = page.getByTestId(`column-${status}`);
  const first = column.locator('[data-testid^="card-"]').first();
  await first.focus();
  await page.keyboard.press('ArrowDown');
  await expect(column.locator('[data-testid^="card-"]').nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(column.locator('[data-testid^="card-"]:focus')).toHaveCount(0);
  await expect(page.locator('[data-testid^="column-"] [data-testid^="card-"]:focus')).toHaveCount(1);
  await page.keyboard.press('ArrowLeft');
  await expect(first).toBeFocused();
  const id = (await first.getAttribute('data-testid'))!.replace(/^card-/, '');
  const feature = (await first.getAttribute('data-feature'))!;
  await page.keyboard.press('Enter');
  const drawer = page.getByTestId('item-drawer');
  await expect(drawer).toContainText(id);
  // Dialogs stack: Escape closes the shortcuts opened over the drawer, not the drawer.
  await page.keyboard.press('?');
  await expect(overlay).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(overlay).toHaveCount(0);
  await expect(drawer).toBeVisible();
  await drawer.getByTestId('tab-ac').focus();
  await page.keyboard.press('ArrowRight');
  await expect(drawer.getByTestId('tab-cycles')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(drawer.getByTestId('tab-ac')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(cardOf(page, feature, id)).toBeFocused();

  // The Inbox: arrows move through the list in its order, opening each entry as they reach it.
  await page.getByTestId('nav-inbox').click();
  const entries = page.locator('button.inbox-item');
  const count = await entries.count();
  expect(count).toBeGreaterThanOrEqual(2);
  await entries.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(entries.nth(1)).toBeFocused();
  await expect(entries.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(entries.first()).not.toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('End');
  await expect(entries.nth(count - 1)).toBeFocused();
  await expect(entries.nth(count - 1)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('Home');
  await expect(entries.first()).toBeFocused();
  await expect(entries.first()).toHaveAttribute('aria-current', 'true');
  // Evidence's arrows, Branches' tree keys and Ctrl+Enter need a Baton project with a ledger,
  // branches or a form to send: ledger.spec.ts, branches.spec.ts and new-feature.spec.ts press them.
});
