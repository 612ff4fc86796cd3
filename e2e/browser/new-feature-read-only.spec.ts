/**
 * New feature on a project Baton may not change (the Consort fixture, consort-shop): the button is
 * there, disabled, and says why — on the top bar as its tooltip, on the Specs screen beside it.
 */
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

const REASON = 'Baton reads this Consort project and never writes it: change it with the tool that owns it.';

test('New feature is disabled on a read-only project, with the reason', async ({ servedPage: page }) => {
  await expect(page.getByTestId('new-feature')).toBeDisabled();
  await expect(page.getByTestId('new-feature')).toHaveAttribute('title', REASON);

  await page.getByTestId('nav-specs').click();
  await expect(page.getByTestId('specs-new-feature')).toBeDisabled();
  await expect(page.getByTestId('specs-new-feature-reason')).toHaveText(REASON);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
