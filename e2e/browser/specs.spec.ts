/** The Specs view: features, their stories, and each AC as Given / When / Then. */
import { readFixtureAcs } from './support/fixture-data';
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

test('shows each feature, its stories and their acceptance criteria', async ({ servedPage: page }) => {
  await page.getByTestId('nav-specs').click();
  await expect(page.getByTestId('nav-specs')).toHaveAttribute('aria-current', 'page');

  const checkout = page.getByTestId('feature-F-checkout');
  const inventory = page.getByTestId('feature-F-inventory');
  await expect(checkout.getByRole('heading', { level: 2 })).toHaveText('Checkout');
  await expect(checkout).toContainText('Shoppers pay for the items in their basket and get a receipt.');
  await expect(inventory.getByRole('heading', { level: 2 })).toHaveText('Inventory');
  await expect(inventory).toContainText('Staff see stock levels and reorder before items run out.');

  const payByCard = checkout.getByTestId('story-S-1');
  await expect(payByCard).toContainText('Pay by card');
  await expect(payByCard).toContainText('As a shopper, I want to pay for my basket with a card');
  await expect(payByCard).toContainText('done');
  await expect(payByCard).toContainText('exp/F-checkout/S-1');

  await expect(checkout.getByTestId('story-S-2')).toContainText('building');
  await expect(checkout.getByTestId('story-S-3')).toContainText('awaiting gate');
  await expect(inventory.getByTestId('story-S-2')).toContainText('Reorder low stock');
  await expect(inventory.getByTestId('story-S-2')).toContainText('designing');

  // Every AC of the fixture is shown.
  const acs = readFixtureAcs();
  expect(acs).toHaveLength(9);
  for (const ac of acs) {
    await expect(page.getByTestId(`feature-${ac.featureId}`).getByTestId(`ac-${ac.id}`)).toHaveCount(1);
  }

  // AC-2's `then` is a list of lines in the file; it reads as two lines.
  const ac2 = checkout.getByTestId('ac-AC-2');
  await expect(ac2).toContainText('Declined card');
  await expect(ac2.locator('dd')).toHaveText([
    'a basket with one item',
    'the card issuer declines the payment',
    'the order stays unpaid\nthe shopper sees why the payment failed',
  ]);
});
