/**
 * A tab left open is closed by the host after its idle timeout (`baton serve --idle-timeout`), so
 * idle tabs cannot lock others out; the page connects again on its next request, without an error
 * and without a reload of the page.
 */
import { expect, fixtureFolder, serving } from './support/served';

const test = serving({ ...fixtureFolder(), name: 'idle', serveArgs: ['--idle-timeout', '1'] });

test('after the host closes an idle connection, the next action reconnects and works', async ({ servedPage: page }) => {
  await expect(page.getByTestId('column-count-pending')).toHaveText('5');
  const closed = page.waitForEvent('websocket').catch(() => null);
  // The host sweeps every half second and closes a connection silent for a second.
  await page.waitForTimeout(2500);
  await page.getByRole('button', { name: 'Reload' }).click();
  // A new socket was opened for the request, and the board answered from it.
  expect(await closed).not.toBeNull();
  await expect(page.getByTestId('error')).toHaveCount(0);
  await expect(page.getByTestId('column-count-pending')).toHaveText('5');
  await page.getByRole('link', { name: 'Gates' }).click();
  await expect(page.getByTestId('error')).toHaveCount(0);
});
