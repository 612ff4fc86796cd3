/**
 * The run panel's Path, live in the browser host on the demo project and the embedded database:
 * press Run, watch the first story's experiment pair appear while the feature builds, and at the
 * acceptance gate see the feature's code go from its story experiments through the feature pair
 * to the tier, each saying whether it is merged into its parent; Check migrations then says where
 * each pair's database stands. The run is stopped at the end. Then, on what the run built, each
 * story's acceptance gate tells the Product Owner what happened: every AC, its items green or
 * refactored (as on the Board), and a link to the orchestrator's GREEN record of each (the
 * evidence is the ledger's, never the test list file's, where every item is pending). One build of
 * the demo serves both: it is the longest wait of the browser suite.
 */
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
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

const STORIES = { 'S-1': ['AC-1', 'AC-2', 'AC-3', 'AC-4'], 'S-2': ['AC-5', 'AC-6', 'AC-7', 'AC-8'] } as const;

async function openAcceptance(page: Page, story: string): Promise<Locator> {
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId(`inbox-item-F-inventory-acceptance-${story}`).click();
  const summary = page.getByTestId('evidence-summary');
  await expect(summary).toBeVisible();
  return summary;
}

test('the Path goes from the story experiments through the feature to the tier, and says where each database stands; each acceptance gate shows its ACs proven', async ({
  servedPage: page,
}) => {
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

  await test.step('the Board: every item of the demo is green or refactored', async () => {
    await page.getByTestId('nav-board').click();
    for (let n = 1; n <= 8; n += 1)
      await expect(page.locator(`[data-testid="column-green"], [data-testid="column-refactored"]`).getByTestId(`card-T${n}`)).toBeVisible();
  });

  for (const [story, acs] of Object.entries(STORIES)) {
    await test.step(`the acceptance gate of ${story} shows every AC proven by GREEN records, matching the Board`, async () => {
      const summary = await openAcceptance(page, story);
      await expect(summary).toHaveAttribute('data-source', 'ledger');
      await expect(summary.getByTestId('evidence-acs')).toContainText(`${acs.length} of ${acs.length} proven`);
      await expect(summary.getByTestId('evidence-status-pending')).toHaveCount(0);
      for (const ac of acs) {
        const row = summary.getByTestId(`proof-ac-${ac}`);
        await expect(row).toHaveAttribute('data-proven', 'true');
        const items = row.locator('[data-testid^="proof-item-"]');
        await expect(items).toHaveCount(1);
        await expect(items.first()).toHaveAttribute('data-status', /^(green|refactored)$/);
        await expect(items.first().locator('[data-testid^="proof-green-"]')).toContainText(/GREEN record #\d+/);
      }
      // The same statuses as the Board's cards.
      const statuses = await summary
        .locator('[data-testid^="proof-item-"]')
        .evaluateAll((els) => els.map((e) => [e.getAttribute('data-testid')!.replace('proof-item-', ''), e.getAttribute('data-status')]));
      await page.getByTestId('nav-board').click();
      for (const [item, status] of statuses) await expect(page.getByTestId(`column-${status}`).getByTestId(`card-${item}`)).toBeVisible();
    });
  }

  await test.step('a GREEN record opens in the Evidence timeline from the acceptance gate', async () => {
    await openAcceptance(page, 'S-2');
    const link = page.getByTestId('proof-green-T6');
    const seq = (await link.textContent())!.match(/#(\d+)/)![1]!;
    await link.click();
    await expect(page.getByTestId('nav-evidence')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId(`ledger-record-${seq}`)).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('record-detail')).toContainText('cycle.greened');
  });
});
