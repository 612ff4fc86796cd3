/** The board shows every test-list item of the fixture, each in the column of its status. */
import { countByStatus, readFixtureItems, STATUSES } from './support/fixture-data';
import { allCards, cardOf } from './support/locators';
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

test('every item appears in the column of its status, and each count matches', async ({ servedPage: page }) => {
  const items = readFixtureItems();
  const expected = countByStatus(items);
  // Literal facts from EXPECTED.md, so a fixture that silently lost its files fails here.
  expect(items).toHaveLength(14);
  expect(expected).toEqual({ pending: 5, red: 2, green: 3, refactored: 2, escalated: 0, skipped: 2 });

  await expect(page.getByTestId('project-name')).toHaveText('consort-shop');
  await expect(page.getByTestId('layout-badge')).toHaveText('Consort');
  await expect(page.getByTestId('read-only')).toBeVisible();
  await expect(page.getByTestId('nav-board')).toHaveAttribute('aria-current', 'page');

  for (const status of STATUSES) {
    await expect(page.getByTestId(`column-count-${status}`)).toHaveText(String(expected[status]));
    await expect(allCards(page.getByTestId(`column-${status}`))).toHaveCount(expected[status]);
  }
  await expect(allCards(page)).toHaveCount(items.length);

  for (const item of items) {
    const card = cardOf(page.getByTestId(`column-${item.status}`), item.featureId, item.id);
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(item.description);
    await expect(card).toContainText(item.acId);
    await expect(card).toContainText(item.kind === 'unspecified' ? 'no kind' : item.kind);
  }
});

test('columns come in status order with a word, not colour alone', async ({ servedPage: page }) => {
  const headers = page.locator('[data-testid^="column-"] > h2');
  await expect(headers).toHaveCount(STATUSES.length);
  for (const [index, status] of STATUSES.entries()) {
    await expect(headers.nth(index)).toContainText(status);
  }
});
