/**
 * The board at scale (issue 17): 2,014 items, of which only the cards in view are in the DOM.
 * Scrolling and the keyboard still reach every card, the six status columns stay in one row at
 * any width, and a long AC id stays inside its card with its whole text at hand.
 */
import type { Locator, Page } from '@playwright/test';
import { readFixtureItems, STATUSES } from './support/fixture-data';
import { countsOf, largeItems, LONG_AC_ID, makeLargeProject } from './support/large-project';
import { cardOf } from './support/locators';
import { expect, serving } from './support/served';

const COUNT = 2000;
const test = serving({ name: 'large', make: (scratch: string) => makeLargeProject(scratch, COUNT), target: (project) => project.dir });

// Board order: features by id (F-bulk-1..4, then consort-shop's F-checkout and F-inventory), each list in file order.
const boardItems = [...largeItems(COUNT), ...readFixtureItems().map((i) => ({ ...i, kind: i.kind === 'unspecified' ? null : i.kind }))];
const inColumn = (status: string) => boardItems.filter((i) => i.status === status);
const cardOfItem = (scope: Page | Locator, item: { featureId: string; id: string }) => cardOf(scope, item.featureId, item.id);
const renderedCards = (page: Page) => page.locator('.card[data-testid^="card-"]');

/** The card is rendered and shown whole in its column's scroller. */
const wholeInView = async (card: Locator) =>
  (await card.count()) > 0 &&
  card.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const view = el.closest('.column-scroll')!.getBoundingClientRect();
    return box.top >= view.top && box.bottom <= view.bottom;
  });

/** Where each rendered card of a column is, top to bottom (the column's tab stop kept off screen left out). */
const cardBoxes = (column: Locator) =>
  column.evaluate((el) =>
    Array.from(el.querySelectorAll<HTMLElement>('li[data-index]:not([data-pinned]) > .card')).map((card) => {
      const r = card.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    }),
  );

/**
 * Scrolls the row the least needed to show `el` (scrollIntoView, instant) and says where it then is and
 * whether a person could scroll the row: all read in the page in one go, so nothing waits for an
 * animation frame (Playwright's scrollIntoViewIfNeeded and toBeInViewport do, and on a loaded
 * machine frames can stop coming long enough to time the test out).
 */
const revealInRow = (el: Locator) =>
  el.evaluate((target) => {
    const board = target.closest<HTMLElement>('.board')!;
    target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const box = target.getBoundingClientRect();
    const row = board.getBoundingClientRect();
    return {
      overflows: board.scrollWidth > board.clientWidth,
      scrollable: ['auto', 'scroll'].includes(getComputedStyle(board).overflowX),
      scrollLeft: board.scrollLeft,
      inRow: box.left >= row.left && box.right <= row.left + board.clientWidth,
      inWindow: box.left >= 0 && box.right <= window.innerWidth && box.top >= 0 && box.bottom <= window.innerHeight,
    };
  });

test('only the cards in view are in the DOM, and scrolling a column brings its later cards', async ({ servedPage: page }) => {
  const expected = countsOf(boardItems);
  await expect(page.getByTestId('board-summary')).toHaveText(`${boardItems.length} items`);
  for (const status of STATUSES) await expect(page.getByTestId(`column-count-${status}`)).toHaveText(String(expected[status]));

  const pending = inColumn('pending');
  const column = page.getByTestId('column-pending');
  await expect(cardOfItem(column, pending[0]!)).toBeInViewport();
  // A bounded number of cards: the ones in view and a few around them, in each column.
  expect(await renderedCards(page).count()).toBeLessThanOrEqual(150);
  await expect(cardOfItem(page, pending[300]!)).toHaveCount(0);

  await column.hover();
  await page.mouse.wheel(0, 1_000_000);
  const last = pending[pending.length - 1]!;
  await expect(cardOfItem(column, last)).toBeInViewport();
  await expect(cardOfItem(column, last)).toContainText(last.description);
  await expect(cardOfItem(page, pending[1]!)).toHaveCount(0);
  expect(await renderedCards(page).count()).toBeLessThanOrEqual(150);

  // Cards stack without overlapping, at the end of the list as at its start.
  const boxes = await cardBoxes(column);
  expect(boxes.length).toBeGreaterThan(2);
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom);
});

test('the keyboard reaches an off-screen card and opens its drawer', async ({ servedPage: page }) => {
  const pending = inColumn('pending');
  const red = inColumn('red');
  const column = page.getByTestId('column-pending');
  await expect(cardOfItem(column, pending[0]!)).toBeVisible();

  // Each column is one tab stop: the first card of the first column comes after the filters.
  await page.getByTestId('filter-kind').focus();
  await page.keyboard.press('Tab');
  await expect(cardOfItem(column, pending[0]!)).toBeFocused();

  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(cardOfItem(column, pending[3]!)).toBeFocused();

  const last = pending[pending.length - 1]!;
  await page.keyboard.press('End');
  const lastCard = cardOfItem(column, last);
  await expect(lastCard).toBeFocused();
  await expect(lastCard).toBeInViewport();

  await page.keyboard.press('Enter');
  const drawer = page.getByTestId('item-drawer');
  await expect(drawer).toBeVisible();
  await expect(drawer.locator('h2')).toContainText(last.id);
  await expect(drawer.locator('h2')).toContainText(last.description);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(lastCard).toBeFocused();

  await page.keyboard.press('PageUp');
  await expect(lastCard).not.toBeFocused();
  await page.keyboard.press('Home');
  await expect(cardOfItem(column, pending[0]!)).toBeFocused();
  await expect(cardOfItem(column, pending[0]!)).toBeInViewport();

  // Right moves to the next column's tab stop; Tab does too, one stop per column.
  await page.keyboard.press('ArrowRight');
  await expect(cardOfItem(page.getByTestId('column-red'), red[0]!)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(cardOfItem(page.getByTestId('column-green'), inColumn('green')[0]!)).toBeFocused();
});

test('the six status columns sit in one row, in a narrow window and a wide one', async ({ servedPage: page }) => {
  // Six columns of at least 180 px do not fit 900 px: the row scrolls. At 1920 px they fit.
  for (const { width, scrolls } of [
    { width: 900, scrolls: true },
    { width: 1920, scrolls: false },
  ]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
    const boxes = [];
    for (const status of STATUSES) {
      const box = await page.getByTestId(`column-${status}`).boundingBox();
      if (!box) throw new Error(`column ${status} has no box at ${width} px`);
      boxes.push(box);
    }
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]!.y, `${STATUSES[i]} at ${width} px`).toBe(boxes[0]!.y);
      expect(boxes[i]!.x, `${STATUSES[i]} at ${width} px`).toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width);
    }
    // The last column is reachable: the row scrolls sideways when it does not fit.
    const last = await revealInRow(page.getByTestId('column-count-skipped'));
    expect(last.overflows, `the row overflows at ${width} px`).toBe(scrolls);
    if (scrolls) {
      expect(last.scrollable, 'a person can scroll the row sideways').toBe(true);
      expect(last.scrollLeft, `the row scrolled sideways at ${width} px`).toBeGreaterThan(0);
    }
    expect(last.inRow, `the last column's count shown in the row at ${width} px`).toBe(true);
    expect(last.inWindow, `the last column's count shown in the window at ${width} px`).toBe(true);
  }
});

test('a long AC id ends in an ellipsis inside its card, its whole text in the title', async ({ servedPage: page }) => {
  const item = boardItems.find((i) => i.acId === LONG_AC_ID && i.status === 'refactored');
  if (!item) throw new Error('the large project has no refactored item with a long AC id');
  const column = page.getByTestId('column-refactored');
  const card = cardOfItem(column, item);
  // Scrolled to as a person would, a few cards at a time.
  await column.hover();
  for (let i = 0; i < 30 && !(await wholeInView(card)); i++) await page.mouse.wheel(0, 300);
  expect(await wholeInView(card)).toBe(true);

  const ac = card.getByTestId('item-ac');
  await expect(ac).toHaveText(LONG_AC_ID);
  await expect(ac).toHaveAttribute('title', LONG_AC_ID);
  const fit = await ac.evaluate((el) => {
    const cardBox = el.closest('.card')!.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return {
      inside: box.left >= cardBox.left && box.right <= cardBox.right,
      cut: el.scrollWidth > el.clientWidth,
      overflow: getComputedStyle(el).textOverflow,
    };
  });
  expect(fit.inside).toBe(true);
  // It does not fit a card, so it is cut visibly (an ellipsis), not silently.
  expect(fit.cut).toBe(true);
  expect(fit.overflow).toBe('ellipsis');
  await expect(card).toContainText(item.kind ?? 'no kind');
});
