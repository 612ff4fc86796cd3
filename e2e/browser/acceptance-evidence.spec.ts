/**
 * After `baton demo`, the acceptance gate of each story tells the Product Owner what happened: every
 * AC, its items green or refactored (as on the Board), and a link to the orchestrator's GREEN record
 * of each — the evidence is the ledger's, never the test list file's (where every item is pending).
 */
import type { Page } from '@playwright/test';
import { demoRun, expect, serving } from './support/served';

const test = serving(demoRun());
test.describe.configure({ timeout: 120_000 });

const STORIES = { 'S-1': ['AC-1', 'AC-2', 'AC-3', 'AC-4'], 'S-2': ['AC-5', 'AC-6', 'AC-7', 'AC-8'] } as const;

async function openAcceptance(page: Page, story: string) {
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId(`inbox-item-F-inventory-acceptance-${story}`).click();
  await expect(page.getByTestId('evidence-summary')).toBeVisible();
}

test('the demo built every item (as its summary says)', ({ project: demo }) => {
  expect(demo.items.total).toBe(8);
  expect((demo.items.byStatus.green ?? 0) + (demo.items.byStatus.refactored ?? 0)).toBe(8);
});

for (const [story, acs] of Object.entries(STORIES)) {
  test(`the acceptance gate of ${story} shows every AC proven by GREEN records, matching the Board`, async ({ servedPage: page }) => {
    await openAcceptance(page, story);
    const summary = page.getByTestId('evidence-summary');
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
    for (const [item, status] of statuses) {
      await expect(page.getByTestId(`column-${status}`).getByTestId(`card-${item}`)).toBeVisible();
    }
  });
}

test('a GREEN record opens in the Evidence timeline from the acceptance gate', async ({ servedPage: page }) => {
  await openAcceptance(page, 'S-2');
  const link = page.getByTestId('proof-green-T6');
  const seq = (await link.textContent())!.match(/#(\d+)/)![1]!;
  await link.click();
  await expect(page.getByTestId('nav-evidence')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId(`ledger-record-${seq}`)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('record-detail')).toContainText('cycle.greened');
});
