/** Saves a screenshot of the board for people to look at (e2e/artifacts/ is gitignored). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from './support/paths';
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

test('board screenshot', async ({ servedPage: page }) => {
  await expect(page.getByTestId('column-count-pending')).toHaveText(/\d+/);
  await expect(page.locator('[data-testid^="card-"]').first()).toBeVisible();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, 'board.png');
  await page.screenshot({ path, fullPage: false });
});
