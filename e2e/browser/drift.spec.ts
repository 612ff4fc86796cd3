/**
 * Drift: an approved artifact changed on disk turns its gate `drifted` everywhere, and the badge
 * opens the frozen-versus-current diff, unified or side by side. The approval can be withdrawn.
 */
import { join } from 'node:path';
import { specOf } from './support/baton-project';
import { cardOf } from './support/locators';
import { ARTIFACTS_DIR } from './support/paths';
import { batonProject, expect, serving } from './support/served';

const APPROVER = 'Ana <ana@example.com>';
const test = serving(
  batonProject({
    prepare: (project) => project.baton('approve', project.dir, '--feature', 'F-1', '--gate', 'spec', '--approver', APPROVER, '--yes'),
  }),
);

test('a changed approved spec shows a drifted badge that opens the diff', async ({ servedPage: page, project }) => {
  await page.getByTestId('nav-specs').click();
  const badge = page.getByTestId('gate-badge-F-1-spec');
  await expect(badge).toContainText('spec approved');

  project.writeArtifact('F-1', 'feature-spec.json', specOf('F-1', 'Shoppers pay for their basket by card or by voucher.'));
  await page.getByTestId('reload').click();
  await expect(badge).toContainText('spec drifted');
  await badge.click();
  await expect(page).toHaveURL(/#\/diff\/F-1\/spec$/);

  const diff = page.getByTestId('diff-view');
  const spec = diff.getByTestId('evidence-artifact-feature-spec.json');
  await expect(spec).toContainText('changed since approval');
  await expect(spec.locator('tr.diff-added')).toContainText('by card or by voucher');
  await expect(spec.locator('tr.diff-removed')).toContainText('Shoppers pay for the items in their basket.');
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'diff-unified.png') });

  await page.getByTestId('diff-mode-split').click();
  await expect(page.getByTestId('diff-mode-split')).toHaveAttribute('aria-pressed', 'true');
  await expect(spec.locator('td.diff-text.diff-removed')).toContainText('for the items in their basket');
  await expect(spec.locator('td.diff-text.diff-added')).toContainText('by card or by voucher');
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'diff-split.png') });
  await page.getByTestId('diff-mode-unified').click();
  await expect(spec.locator('tr.diff-added')).toContainText('by card or by voucher');

  // The board's cards of that feature say so too.
  await page.getByTestId('nav-board').click();
  await expect(cardOf(page, 'F-1', 'T1')).toContainText('drifted gate');

  // The inbox offers it again, with the changes since approval.
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId('inbox-item-F-1-spec').click();
  await expect(page.getByTestId('inbox-item-F-1-spec')).toContainText('drifted');
  const inInbox = page.getByTestId('evidence-artifact-feature-spec.json');
  await inInbox.getByTestId('open-evidence').click();
  // Both versions rendered first, then the lines.
  await expect(inInbox.getByTestId('rendered-approved')).toContainText('Shoppers pay for the items in their basket.');
  await expect(inInbox.getByTestId('rendered-now')).toContainText('by card or by voucher');
  await inInbox.getByTestId('artifact-view-text-changes').click();
  await expect(inInbox.locator('tr.diff-added')).toContainText('by card or by voucher');
});

test('withdrawing an approval needs a reason and reopens the gate', async ({ servedPage: page }) => {
  await page.getByTestId('nav-gates').click();
  const row = page.getByTestId('gate-F-1-spec');
  await expect(row.getByTestId('gate-badge-F-1-spec')).toHaveText(/approved|drifted/);
  await row.getByTestId('withdraw').click();
  const submit = page.getByTestId('withdraw-submit');
  await expect(page.getByTestId('withdraw-dialog')).toContainText('also reopens the design and test_list gates');
  await expect(submit).toBeDisabled();
  await page.getByTestId('withdraw-reason').fill('The voucher flow needs its own story.');
  await submit.click();
  await expect(page.getByTestId('identity-dialog')).toBeVisible();
  await page.getByTestId('identity-input').fill(APPROVER);
  await page.getByTestId('identity-confirm').click();
  await expect(row.locator('th, td').nth(1)).toHaveText('withdrawn');
  await expect(row.getByTestId('withdraw')).toHaveCount(0);
});
