/** With no project open, the Open screen: a bad path explains itself, a good one opens the board. */
import { FIXTURE_DIR } from './support/paths';
import { expect, noProject, serving } from './support/served';

const test = serving(noProject());

test('opens a project by path, explaining a bad path inline', async ({ servedPage: page }) => {
  await expect(page.getByRole('heading', { name: 'Open a project' })).toBeVisible();
  // The browser host cannot show a folder dialog, so the button is not offered.
  await expect(page.getByRole('button', { name: 'Choose folder…' })).toHaveCount(0);

  await page.getByTestId('open-path').fill('/no/such/folder/for/baton');
  await page.getByTestId('open-submit').click();
  await expect(page.getByTestId('error')).toContainText('/no/such/folder/for/baton');

  await page.getByTestId('open-path').fill(FIXTURE_DIR);
  await page.getByTestId('open-path').press('Enter');
  await expect(page.getByTestId('project-name')).toHaveText('consort-shop');
  await expect(page.getByTestId('column-count-pending')).toHaveText('5');

  // "Open another…" lists it as a recent project, and Back returns to the board.
  await page.getByTestId('open-another').click();
  await expect(page.getByTestId('recent-list')).toContainText('consort-shop');
  await page.getByRole('button', { name: /Back to consort-shop/ }).click();
  await expect(page.getByTestId('column-pending')).toBeVisible();
});

test('a page whose socket is refused shows why, with a Retry', async ({ servedPage: page, served }) => {
  // The served page's first visit, with the token, set the host's cookie, so the page itself loads without it...
  await page.goto(`${served.origin}/`);
  // ...but the WebSocket needs the token in its URL, so the renderer reports the refusal.
  // (Which sentence it shows depends on renderer/client/ws-client.ts; the code is stable.)
  const error = page.getByTestId('error');
  await expect(error).toHaveAttribute('data-code', 'disconnected');
  await expect(page.getByRole('heading', { name: 'Baton could not load' })).toBeVisible();
  await expect(error.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByTestId('column-pending')).toHaveCount(0);
});
