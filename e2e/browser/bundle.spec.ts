/** An exported review bundle opens read-only: marked as such, readable, and nothing decidable. */
import { cardOf } from './support/locators';
import { batonProject, expect, serving } from './support/served';

const test = serving(
  batonProject({
    prepare: (project) => project.baton('approve', project.dir, '--feature', 'F-1', '--gate', 'spec', '--approver', 'Ana <ana@example.com>', '--yes'),
    bundle: true,
  }),
);

test('a bundle shows its read-only marker, its board and ledger, and disables every decision', async ({ servedPage: page }) => {
  await expect(page.getByTestId('bundle-marker')).toHaveText('Review bundle · read-only');
  await expect(cardOf(page, 'F-1', 'T1')).toContainText('a valid card pays the order');
  await expect(cardOf(page, 'F-1', 'T2')).toBeVisible();

  await page.getByTestId('nav-inbox').click();
  await page.getByTestId('inbox-item-F-1-design').click();
  await expect(page.getByTestId('decision-readonly')).toContainText('review bundle');
  await expect(page.getByTestId('approve')).toBeDisabled();
  await expect(page.getByTestId('reject')).toBeDisabled();

  await page.getByTestId('nav-gates').click();
  await expect(page.getByTestId('gate-F-1-spec').locator('th, td').nth(1)).toHaveText('approved');
  await expect(page.getByTestId('withdraw')).toHaveCount(0);

  await page.getByTestId('nav-evidence').click();
  await expect(page.getByTestId('ledger-banner')).toHaveAttribute('data-state', 'intact');
  await expect(page.getByTestId('ledger-record-1')).toContainText('gate.approved');
});
