/** Settings on a Consort project: shown, never saved. */
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

test('a read-only project shows its agents and project settings with no Save', async ({ servedPage: page }) => {
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-read-only')).toContainText('never writes it');
  await expect(page.getByTestId('agent-driver-adapter')).toBeDisabled();
  await expect(page.getByTestId('agent-driver-save')).toHaveCount(0);
  // The project settings a PO tunes: shown, disabled, with no Save.
  await expect(page.getByTestId('project-settings-read-only')).toContainText('never writes it');
  await expect(page.getByTestId('setting-repairBudget')).toBeDisabled();
  await expect(page.getByTestId('setting-notify-webhook')).toBeDisabled();
  await expect(page.getByTestId('project-settings-save')).toHaveCount(0);
});
