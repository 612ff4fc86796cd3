/**
 * The Evidence screen: the ledger's verification banner, its records, and a record's blobs.
 * (A ledger with no records: ledger-empty.spec.ts.)
 */
import { join } from 'node:path';
import { ARTIFACTS_DIR } from './support/paths';
import { batonProject, expect, serving } from './support/served';

const test = serving(
  batonProject({
    prepare: (project) =>
      project.baton(
        'approve',
        project.dir,
        '--feature',
        'F-1',
        '--gate',
        'spec',
        '--approver',
        'Ana <ana@example.com>',
        '--comment',
        'Complete and clear.',
        '--yes',
      ),
  }),
);

test.describe('a ledger with an approval', () => {
  test('shows the intact banner and the record, whose blob opens', async ({ servedPage: page }) => {
    await page.getByTestId('nav-evidence').click();
    await expect(page.getByTestId('nav-evidence')).toHaveAttribute('aria-current', 'page');

    const banner = page.getByTestId('ledger-banner');
    await expect(banner).toHaveAttribute('data-state', 'intact');
    await expect(banner).toContainText(/Ledger intact · \d+ records? · head [0-9a-f]{8}…/);
    await expect(page.getByTestId('ledger-signature')).toHaveText(/signed|unsigned|signature invalid/);

    const record = page.getByTestId('ledger-record-1');
    await expect(record).toContainText('gate.approved');
    await expect(record).toContainText('Ana <ana@example.com>');
    await expect(record).toContainText('F-1');
    await record.click();
    await expect(record).toHaveAttribute('aria-current', 'true');

    const detail = page.getByTestId('record-detail');
    await expect(detail).toContainText('Complete and clear.');
    await detail.locator('[data-testid="record-blob"][data-name="feature-spec.json"]').click();
    const blob = page.getByTestId('blob-view');
    await expect(blob).toContainText('"feature_id": "F-1"');
    await expect(blob).toContainText('Shoppers pay for the items in their basket.');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'timeline.png') });
  });
});
