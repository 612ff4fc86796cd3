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

test('a card shows its whole id; the feature name only while several features share the board', async ({ servedPage: page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const ids = page.locator('.card .card-id');
  await expect(ids.first()).toBeVisible();
  // A feature named at length (as the demo's is) gives way to the id, never the other way round.
  const fit = await page
    .locator('.card')
    .first()
    .evaluate((card) => {
      card.querySelector('.card-feature')!.textContent = 'Inventory that never oversells, even under concurrent checkouts';
      const id = card.querySelector<HTMLElement>('.card-id')!;
      const feature = card.querySelector<HTMLElement>('.card-feature')!;
      return { idCut: id.scrollWidth > id.clientWidth, featureCut: feature.scrollWidth > feature.clientWidth };
    });
  expect(fit).toEqual({ idCut: false, featureCut: true });
  const cut = await ids.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent));
  expect(cut).toEqual([]);
  await expect(page.locator('.card .card-feature').first()).toBeVisible();
  // Filtered to one feature, no card repeats its name.
  await page.getByTestId('filter-feature').selectOption({ index: 1 });
  await expect(ids.first()).toBeVisible();
  await expect(page.locator('.card .card-feature')).toHaveCount(0);
});
