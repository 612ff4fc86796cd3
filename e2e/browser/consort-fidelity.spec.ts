/**
 * A Consort project as Consort writes it today (e2e/fixtures/consort-recorded): named by its
 * product, stories in asA / iWantTo / soThat, per-AC cycle files in the drawer, a promote gate that
 * records a reference (not a file), and a workbench that says plainly nothing can be decided or run here.
 */
import { join } from 'node:path';
import { REPO_ROOT } from './support/paths';
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder(join(REPO_ROOT, 'e2e/fixtures/consort-recorded')));

test('the project is named as its files name it, and Problems agrees with verify: none', async ({ servedPage: page }) => {
  await expect(page.getByTestId('project-name')).toHaveText('StockFlow');
  await expect(page.getByTestId('problems-count')).toHaveText('0');
});

test("Specs reads Consort's iWantTo as the story's I want", async ({ servedPage: page }) => {
  await page.getByTestId('nav-specs').click();
  const story = page.getByTestId('story-S1-file-stock');
  await expect(story).toContainText(
    'As a warehouse team member, I want file a stock record for a SKU at a location, so that the system knows what is on the shelf.',
  );
  await expect(story).not.toContainText('I want —');
});

test('the drawer shows the per-AC cycle files: RED and GREEN times, attempts, verdict, review', async ({ servedPage: page }) => {
  await page.getByTestId('card-T1').click();
  const drawer = page.getByTestId('item-drawer');
  await drawer.getByTestId('tab-cycles').click();
  await expect(drawer.getByTestId('tab-cycles')).toHaveAttribute('aria-selected', 'true');
  const cycle = drawer.getByTestId('cycle-cycle-001');
  await expect(cycle).toHaveAttribute('data-source', 'consort');
  await expect(cycle.getByTestId('cycle-red').locator('time')).toHaveAttribute('datetime', '2026-08-01T05:05:00.000Z');
  await expect(cycle.getByTestId('cycle-green').locator('time')).toHaveAttribute('datetime', '2026-08-01T05:09:30.000Z');
  await expect(cycle.getByTestId('cycle-verdict')).toHaveText('passed');
  await expect(cycle).toContainText('refactor requested: extract the quantity check');
  await expect(cycle).toContainText('covers T1, T2');
  await page.keyboard.press('Escape');

  // T3's cycle is still being repaired: two fix attempts recorded, so this is the third.
  await page.getByTestId('card-T3').click();
  await drawer.getByTestId('tab-ac').focus();
  await page.keyboard.press('ArrowRight');
  await expect(drawer.getByTestId('tab-cycles')).toBeFocused();
  await expect(drawer.getByTestId('cycle-cycle-001').getByTestId('cycle-attempts')).toHaveText('3');
  await expect(drawer.getByTestId('cycle-cycle-001').getByTestId('cycle-green')).toHaveText('—');
});

test('the promote gate is approved and records a reference, not a file; nothing is drifted', async ({ servedPage: page }) => {
  await page.getByTestId('nav-gates').click();
  const promote = page.getByTestId('gate-F1-stock-visibility-promote');
  await expect(promote.locator('td').first()).toContainText('approved');
  await expect(promote.getByTestId('gate-reference-note')).toHaveText('records a reference, not a file');
  await expect(promote).toContainText('promote_ref (a reference, not a file)');
  await expect(page.locator('[data-testid^="gate-badge-"]', { hasText: 'drifted' })).toHaveCount(0);
});

test('read-only: no run controls, no "needs you" count, and the Inbox says why nothing can be decided', async ({ servedPage: page }) => {
  await expect(page.getByTestId('run-start')).toHaveCount(0);
  await expect(page.getByTestId('inbox-count')).toHaveCount(0);
  await expect(page.getByTestId('inbox-read-only-marker')).toBeVisible();
  await page.getByTestId('nav-inbox').click();
  // Every gate of this project is approved: nothing is listed, and nothing claims to need a decision.
  await expect(page.getByTestId('inbox-empty')).toBeVisible();
});
