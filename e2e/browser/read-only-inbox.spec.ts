/**
 * A Consort project with open gates (consort-shop): the Inbox lists them as "open (read-only)",
 * says why nothing can be decided here, and shows no count that says something needs you.
 */
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

test('open gates of a read-only project are listed as open (read-only), with the reason and no count', async ({ servedPage: page }) => {
  await expect(page.getByTestId('inbox-count')).toHaveCount(0);
  await page.getByTestId('nav-inbox').click();
  await expect(page.getByTestId('inbox-title')).toHaveText('Nothing can be decided here (read-only)');
  await expect(page.getByTestId('inbox-read-only')).toContainText(
    'Baton reads this Consort project and never writes it: decide its gates with the tool that owns it.',
  );
  const list = page.getByRole('list', { name: /Open gates \(read-only\)/ });
  await expect(list.getByTestId('inbox-item-F-checkout-deploy')).toContainText('open (read-only)');
  await expect(list.getByTestId('inbox-item-F-checkout-deploy')).toContainText('cannot be decided here');
  await expect(page.getByRole('heading', { name: /Ready to decide/ })).toHaveCount(0);
  // No way to decide: the decision bar says why and offers nothing to press.
  await list.getByTestId('inbox-item-F-checkout-deploy').click();
  await expect(page.getByTestId('approve')).toBeDisabled();
});

test('Branches has nothing to try again on a read-only project', async ({ servedPage: page }) => {
  await page.getByTestId('nav-branches').click();
  await expect(page.getByTestId('branches-unavailable')).toBeVisible();
  await expect(page.getByTestId('branches-unavailable').getByRole('button', { name: 'Try again' })).toHaveCount(0);
});
