/**
 * Two independent stories built at once, live in the browser host: press Run and the panel's
 * "Building now" names both items ("2 items in parallel"), both Board cards say they are running,
 * and both reach GREEN; the run then waits at the acceptance gate.
 */
import { expect, parallelProject, serving } from './support/served';

const test = serving(parallelProject());

// Real cycles (PGlite branches, node:test runs) on a small, busy machine: every wait is on what the page shows.
test.describe.configure({ timeout: 600_000 });
const SLOW = { timeout: 300_000 };

test('Run builds both independent stories at once, and the panel and Board say so', async ({ servedPage: page }) => {
  await expect(page.getByTestId('column-pending').getByTestId('card-T1')).toBeVisible();
  await expect(page.getByTestId('column-pending').getByTestId('card-T2')).toBeVisible();
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-panel')).toBeVisible();

  await test.step('both items are being built at the same time', async () => {
    const building = page.getByTestId('run-building');
    await expect(building).toHaveAttribute('data-count', '2', SLOW);
    await expect(building).toContainText('2 items in parallel');
    await expect(page.getByTestId('run-building-T1')).toBeVisible();
    await expect(page.getByTestId('run-building-T2')).toBeVisible();
    await expect(page.getByTestId('card-T1').getByTestId('card-running')).toBeVisible();
    await expect(page.getByTestId('card-T2').getByTestId('card-running')).toBeVisible();
  });

  await test.step('both reach GREEN, and the run waits at acceptance with nothing left building', async () => {
    await expect(page.getByTestId('column-green').getByTestId('card-T1')).toBeVisible(SLOW);
    await expect(page.getByTestId('column-green').getByTestId('card-T2')).toBeVisible(SLOW);
    await expect(page.getByTestId('run-condition')).toHaveAttribute('data-condition', 'waiting', SLOW);
    await expect(page.getByTestId('run-building')).toHaveCount(0);
    await expect(page.getByTestId('card-running')).toHaveCount(0);
  });
});
