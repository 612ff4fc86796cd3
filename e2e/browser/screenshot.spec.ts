/** Saves a screenshot of the board for people to look at (e2e/artifacts/ is gitignored). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ARTIFACTS_DIR } from './support/paths';
import { servedFixture } from './support/served-fixture';

const served = servedFixture();

test('board screenshot', async ({ page }) => {
  await page.goto(served().url);
  await expect(page.getByTestId('column-count-pending')).toHaveText(/\d+/);
  await expect(page.locator('[data-testid^="card-"]').first()).toBeVisible();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, 'board.png');
  await page.screenshot({ path, fullPage: false });
});
