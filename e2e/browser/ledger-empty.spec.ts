/** The Evidence screen of a project whose ledger has no records yet. (With records: ledger.spec.ts.) */
import { batonProject, expect, serving } from './support/served';

const test = serving(batonProject());

test.describe('a ledger with no records', () => {
  test('says when records appear', async ({ servedPage: page }) => {
    await page.getByTestId('nav-evidence').click();
    await expect(page.getByTestId('ledger-empty')).toHaveText('No ledger records yet — they appear when gates are decided or cycles run.');
    await expect(page.getByTestId('ledger-banner')).toContainText('0 records');
  });
});
