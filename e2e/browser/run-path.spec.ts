/**
 * The run panel's Path, live in the browser host on the demo project and the embedded database:
 * press Run, watch the first story's experiment pair appear while the feature builds, and at the
 * acceptance gate see the feature's code go from its story experiments through the feature pair
 * to the tier, each saying whether it is merged into its parent; Check migrations then says where
 * each pair's database stands. The run is stopped at the end.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR } from './support/paths';
import { demoProject, expect, serving } from './support/served';

const test = serving(demoProject());

// The demo builds T1 to T7 over two stories before acceptance: on a small, busy machine that takes
// many minutes (run.spec.ts needs a minute or more for T1 alone). Every wait is on what the page shows.
test.describe.configure({ timeout: 1_500_000 });
const SLOW = { timeout: 300_000 };
const WHOLE_BUILD = { timeout: 1_200_000 };

const current = (page: Page, machine: string) => page.getByTestId(machine).locator('[aria-current="step"]');
const pathRow = (page: Page, branch: string) => page.locator(`[data-testid="run-path-row"][data-branch="${branch}"]`);

test('the Path goes from the story experiments through the feature to the tier, and says where each database stands', async ({ servedPage: page }) => {
  await expect(page.getByTestId('project-name')).toHaveText('inventory');
  const path = page.getByTestId('run-path');
  const check = page.getByTestId('run-path-check');

  await test.step('Run: the panel shows the Path, and Check migrations waits while the run works', async () => {
    await page.getByTestId('run-start').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('run-panel')).toBeVisible();
    await expect(path).toBeVisible(SLOW);
    await expect(path.getByRole('heading', { name: 'Path' })).toBeVisible();
    await expect(page.getByTestId('run-path-refresh')).toBeEnabled(SLOW);
    // An embedded database serves one client at a time: no check while the run's tests may need it.
    await expect(check).toBeDisabled();
    await expect(check).toHaveAttribute('title', /The run is using its branches’ databases now/);
    await expect(page.getByTestId('run-path-error')).toHaveCount(0);
  });

  await test.step("the first story's experiment appears while the feature builds", async () => {
    await expect(current(page, 'lifecycle-machine')).toHaveAttribute('data-state', 'building', SLOW);
    await expect(pathRow(page, 'baton/f-inventory--s-1')).toBeVisible(SLOW);
    await expect(pathRow(page, 'baton/f-inventory--s-1')).toHaveAttribute('data-kind', 'experiment');
    await expect(pathRow(page, 'baton/f-inventory')).toHaveAttribute('data-kind', 'feature');
    await expect(pathRow(page, 'main')).toHaveAttribute('data-kind', 'tier');
    await expect(page.getByTestId('run-path-empty')).toHaveCount(0);
  });

  await test.step('the run reaches the acceptance gate and waits', async () => {
    await expect(current(page, 'lifecycle-machine')).toHaveAttribute('data-state', 'acceptance', WHOLE_BUILD);
    await expect(page.getByTestId('run-condition')).toHaveAttribute('data-condition', 'waiting', SLOW);
    await expect(page.getByTestId('run-waiting')).toContainText('Waiting for the acceptance gate of F-inventory');
  });

  await test.step('experiments → feature → tier, each merged into its parent or not', async () => {
    // S-2 is built on S-1's experiment (stacked), so the path starts at S-2.
    const rows = path.getByTestId('run-path-row');
    await expect(rows).toHaveCount(4, SLOW);
    expect(await rows.evaluateAll((els) => els.map((el) => `${el.getAttribute('data-kind')} ${el.getAttribute('data-branch')}`))).toEqual([
      'experiment baton/f-inventory--s-2',
      'experiment baton/f-inventory--s-1',
      'feature baton/f-inventory',
      'tier main',
    ]);
    const s1 = pathRow(page, 'baton/f-inventory--s-1');
    await expect(s1.getByTestId('run-path-kind')).toHaveText('experiment');
    await expect(s1.getByTestId('run-path-branch')).toHaveText('baton/f-inventory--s-1');
    await expect(s1.getByTestId('run-path-merged')).toHaveText('not merged into baton/f-inventory');
    await expect(pathRow(page, 'baton/f-inventory--s-2').getByTestId('run-path-merged')).toHaveText('not merged into baton/f-inventory--s-1');
    // Before acceptance the feature branch has no commit of its own: no merge badge (not "merged into main").
    await expect(pathRow(page, 'baton/f-inventory').getByTestId('run-path-merged')).toHaveCount(0);
    await expect(pathRow(page, 'main').getByTestId('run-path-kind')).toHaveText('tier');
    await expect(pathRow(page, 'main').getByTestId('run-path-merged')).toHaveCount(0);
    // No check asked for yet: no migration state is shown.
    await expect(path.getByTestId('run-path-migrations')).toHaveCount(0);
  });

  await test.step('Check migrations, from the keyboard: a state on every row', async () => {
    await expect(check).toBeEnabled();
    await expect(check).toHaveText('Check migrations');
    await check.focus();
    await page.keyboard.press('Enter');
    for (const branch of ['baton/f-inventory--s-2', 'baton/f-inventory--s-1', 'baton/f-inventory', 'main']) {
      const chip = pathRow(page, branch).getByTestId('run-path-migrations');
      await expect(chip).toHaveAttribute('data-state', /^(current|code-ahead|database-ahead|diverged|unknown)$/, SLOW);
      await expect(chip).toHaveAttribute('title', new RegExp(`^${branch.replace(/[/.-]/g, '\\$&')}: `));
    }
    await expect(check).toHaveText('Check migrations');
    await expect(page.getByTestId('run-path-check-error')).toHaveCount(0);
    await page.getByTestId('run-panel').screenshot({ path: join(ARTIFACTS_DIR, 'run-path.png') });
  });

  await test.step('Refresh reads the pairs again and keeps the path', async () => {
    await page.getByTestId('run-path-refresh').click();
    await expect(page.getByTestId('run-path-refresh')).toBeEnabled(SLOW);
    await expect(path.getByTestId('run-path-row')).toHaveCount(4);
  });

  await test.step('Stop: the run ends stopped', async () => {
    await page.getByTestId('run-stop').click();
    await expect(page.getByTestId('run-condition')).toHaveAttribute('data-condition', 'stopped', SLOW);
    await expect(page.getByTestId('run-start')).toBeEnabled();
    await expect(path).toBeVisible();
  });
});
