/**
 * A Driver asked for packages (`BATON-DEPENDENCY:`), the orchestrator installed them with a real
 * npm (a registry on loopback) and amended the locked manifest: the acceptance gate tells the
 * Product Owner what was added, for which item, with the record one click away.
 */
import { dependencyRun, expect, serving } from './support/served';

const test = serving(dependencyRun());
test.describe.configure({ timeout: 120_000 });

test('the run built every item', ({ project: run }) => {
  expect(run.items).toEqual({ total: 3, byStatus: { green: 3 } });
});

test('the acceptance gate lists each package added, its version, dev or not, its item and its record', async ({ servedPage: page }) => {
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId('inbox-item-F-1-acceptance-S-1').click();
  const added = page.getByTestId('evidence-dependencies');
  await expect(added).toBeVisible();
  await expect(added.locator('li')).toHaveCount(2);
  await expect(page.getByTestId('evidence-dependency-tiny-pad')).toHaveText(/^tiny-pad@\^1\.0\.0 \(1\.0\.0\) for T1 · record #\d+$/);
  await expect(page.getByTestId('evidence-dependency-tiny-sum')).toHaveText(/^tiny-sum@\^2\.0\.0 \(2\.0\.0, dev\) for T3 · record #\d+$/);
  // The refused requests (a path, a git URL) added nothing.
  await expect(added).not.toContainText('evil');
  const link = page.getByTestId('evidence-dependency-tiny-pad').getByRole('link');
  const seq = (await link.textContent())!.match(/#(\d+)/)![1]!;
  await link.click();
  await expect(page.getByTestId(`ledger-record-${seq}`)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('record-detail')).toContainText('cycle.dependencies');
});
