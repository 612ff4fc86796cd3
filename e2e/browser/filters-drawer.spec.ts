/** Filters narrow the board and its counts; a card opens a drawer with its AC; Escape closes it. */
import type { Page } from '@playwright/test';
import { countByStatus, readFixtureAcs, readFixtureItems, storyOf, STATUSES, type FixtureItem } from './support/fixture-data';
import { allCards, cardOf } from './support/locators';
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

async function expectCounts(page: Page, items: readonly FixtureItem[]) {
  const expected = countByStatus(items);
  for (const status of STATUSES) {
    await expect(page.getByTestId(`column-count-${status}`)).toHaveText(String(expected[status]));
  }
  await expect(allCards(page)).toHaveCount(items.length);
}

test('kind, feature and story filters change the counts', async ({ servedPage: page }) => {
  const items = readFixtureItems();
  const acs = readFixtureAcs();
  await expectCounts(page, items);

  await page.getByTestId('filter-kind').selectOption('fitness');
  await expectCounts(
    page,
    items.filter((i) => i.kind === 'fitness'),
  );

  await page.getByTestId('filter-kind').selectOption('unspecified');
  const unspecified = items.filter((i) => i.kind === 'unspecified');
  expect(unspecified).toHaveLength(2);
  await expectCounts(page, unspecified);

  await page.getByTestId('filter-kind').selectOption('all');
  await page.getByTestId('filter-feature').selectOption({ label: 'Inventory' });
  await expectCounts(
    page,
    items.filter((i) => i.featureId === 'F-inventory'),
  );

  // EXPECTED.md: Checkout's behavior items are one in each column a test list can name
  // (`escalated` only ever comes from Baton's ledger, so a Consort fixture has none).
  await page.getByTestId('filter-feature').selectOption({ label: 'Checkout' });
  await page.getByTestId('filter-kind').selectOption('behavior');
  for (const status of STATUSES) await expect(page.getByTestId(`column-count-${status}`)).toHaveText(status === 'escalated' ? '0' : '1');

  await page.getByTestId('filter-kind').selectOption('all');
  await page.getByTestId('filter-story').selectOption('S-2');
  await expectCounts(
    page,
    items.filter((i) => i.featureId === 'F-checkout' && storyOf(i, acs) === 'S-2'),
  );

  // Changing the feature resets the story: its stories belong to the old feature.
  await page.getByTestId('filter-feature').selectOption('');
  await expect(page.getByTestId('filter-story')).toHaveValue('');
  await expectCounts(page, items);
});

test('a card opens a drawer with its AC as Given / When / Then; Escape closes it', async ({ servedPage: page }) => {
  const item = readFixtureItems().find((i) => i.featureId === 'F-checkout' && i.id === 'T5');
  const ac = readFixtureAcs().find((a) => a.featureId === 'F-checkout' && a.id === item?.acId);
  if (!item || !ac) throw new Error('the fixture no longer has F-checkout T5 and its AC');
  expect(ac.id).toBe('AC-3');

  const card = cardOf(page, item.featureId, item.id);
  await card.click();

  const drawer = page.getByTestId('item-drawer');
  await expect(drawer).toBeVisible();
  await expect(drawer).toHaveAttribute('role', 'dialog');
  await expect(page.getByRole('dialog', { name: item.description })).toBeVisible();
  await expect(drawer).toBeFocused();
  await expect(drawer).toContainText('Checkout');
  await expect(drawer).toContainText(`S-2`);
  await expect(drawer).toContainText(ac.id);
  const gwt = drawer.locator('dl.gwt');
  await expect(gwt.locator('dt')).toHaveText(['Given', 'When', 'Then']);
  await expect(gwt.locator('dd')).toHaveText([ac.given, ac.when, ac.then]);

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(card).toBeFocused();

  // The keyboard alone opens it too.
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
});
