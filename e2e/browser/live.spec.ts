/**
 * Live across processes (issue 34): the workbench open in Chromium on a project that other processes
 * change. A decision made with the CLI and an artifact edited on disk show within 2 s, with no
 * Reload, in the open tab and in a fresh one.
 */
import { specOf } from './support/baton-project';
import { batonProject, expect, serving } from './support/served';

const APPROVER = 'Ana <ana@example.com>';
const test = serving(batonProject());
const LIVE = { timeout: 2_000 };

test('a CLI approval and an edit on disk appear within 2 s without Reload', async ({ servedPage: page, project, served, context }) => {
  await page.getByTestId('nav-gates').click();
  const status = page.getByTestId('gate-F-1-spec').locator('th, td').nth(1);
  await expect(status).not.toHaveText('approved');
  await expect(page.getByTestId('nav-inbox')).toBeVisible();

  // Another process decides: the CLI, as a colleague or CI would.
  project.baton('approve', project.dir, '--feature', 'F-1', '--gate', 'spec', '--approver', APPROVER, '--yes');
  await expect(status).toHaveText('approved', LIVE);
  await expect(page.getByTestId('gate-F-1-spec').locator('th, td').nth(2)).toContainText(APPROVER, LIVE);

  // An editor changes the approved spec on disk: the gate drifts, here and in a tab opened now.
  project.writeArtifact('F-1', 'feature-spec.json', specOf('F-1', 'Shoppers pay by card or by voucher.'));
  await expect(status).toHaveText(/^drifted/, LIVE);
  const fresh = await context.newPage();
  await fresh.goto(served.url);
  await fresh.getByTestId('nav-gates').click();
  await expect(fresh.getByTestId('gate-F-1-spec').locator('th, td').nth(1)).toHaveText(/^drifted/, LIVE);
  await fresh.close();
});
