/**
 * The approval inbox on a real Baton project: Approve stays disabled until every artifact has
 * been opened, asks who decides once, and binds what was shown; Reject needs a reason; an
 * artifact that changes while it is read is reloaded instead of approved.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { GIT_IDENTITY, specOf } from './support/baton-project';
import { jcsSha256 } from './support/hash';
import { ARTIFACTS_DIR } from './support/paths';
import { batonProject, expect, serving } from './support/served';

const test = serving(batonProject({ features: ['F-1', 'F-2', 'F-3', 'F-4'] }));

const SPEC_ARTIFACTS = ['feature-spec.json', 'stories/S-1/acs/AC-1.json', 'stories/S-1/story.json'];
const artifact = (page: Page, name: string) => page.getByTestId(`evidence-artifact-${name.replaceAll('/', '_')}`);

async function openInbox(page: Page, item: string) {
  await page.getByTestId('nav-inbox').click();
  await expect(page.getByTestId('nav-inbox')).toHaveAttribute('aria-current', 'page');
  await page.getByTestId(`inbox-item-${item}`).click();
  await expect(page.getByTestId(`inbox-item-${item}`)).toHaveAttribute('aria-current', 'true');
}

test('approve a spec from the inbox: disabled until its evidence is opened, then as the confirmed identity', async ({ servedPage: page, project }) => {
  await openInbox(page, 'F-1-spec');
  const count = page.getByTestId('inbox-count');
  await expect(count).toHaveText(/^\d+$/);
  const before = Number(await count.textContent());
  expect(before).toBeGreaterThan(0);
  // The window's title says Baton needs you, with the same count (seen from the taskbar or tab strip).
  await expect(page).toHaveTitle(new RegExp(`^\\(${before}\\) .+ — Baton$`));

  const approve = page.getByTestId('approve');
  for (const name of SPEC_ARTIFACTS) await expect(artifact(page, name)).toBeVisible();
  await expect(approve).toBeDisabled();

  // Opening all but one artifact is not enough.
  for (const name of SPEC_ARTIFACTS.slice(0, -1)) {
    await artifact(page, name).getByTestId('open-evidence').click();
    await expect(artifact(page, name).getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'true');
    await expect(approve).toBeDisabled();
  }
  const last = artifact(page, SPEC_ARTIFACTS.at(-1)!);
  await last.getByTestId('open-evidence').click();
  // A story opens rendered; its JSON, one click away, is shown pretty-printed.
  await expect(last.getByTestId('artifact-rendered')).toContainText('As a shopper, I want to pay for my basket with a card');
  await last.getByTestId('artifact-view-raw').click();
  await expect(last.locator('pre')).toContainText('"as_a": "shopper"');
  await expect(approve).toBeEnabled();
  await expect(page.getByTestId('evidence-summary')).toContainText('Test items');
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'inbox.png') });

  // Who decides is asked once, prefilled from git, and confirmed.
  await approve.click();
  const dialog = page.getByTestId('identity-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('role', 'dialog');
  await expect(page.getByTestId('identity-input')).toHaveValue(GIT_IDENTITY);
  await expect(page.getByTestId('identity-input')).toBeFocused();
  await page.getByTestId('identity-confirm').click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByTestId('inbox-item-F-1-spec')).toHaveCount(0);
  // The badge counts what can be decided now: the spec is gone from it, the design it unblocked joins it.
  const ready = page.getByRole('list', { name: /Ready to decide/ }).locator('[data-testid^="inbox-item-"]');
  await expect(page.getByRole('list', { name: /Ready to decide/ }).getByTestId('inbox-item-F-1-design')).toBeVisible();
  await expect(count).toHaveText(String(await ready.count()));
  expect(await ready.count()).toBe(before);
  await expect(page).toHaveTitle(new RegExp(`^\\(${before}\\) `));
  // The next decision opened, and the button names who approves.
  await expect(page.locator('[data-testid^="inbox-item-"][aria-current="true"]')).toHaveCount(1);
  await expect(page.getByTestId('approve')).toHaveText(`Approve as ${GIT_IDENTITY}`);

  await page.getByTestId('nav-gates').click();
  const cells = page.getByTestId('gate-F-1-spec').locator('th, td');
  await expect(cells.nth(1)).toHaveText('approved');
  await expect(cells.nth(2)).toHaveText(`${GIT_IDENTITY} · typed, not signed`);
  // The approval bound exactly the hash of what was shown.
  const shown = jcsSha256(project.readArtifact('F-1', 'feature-spec.json'));
  await expect(cells.nth(4).locator(`[title="sha256 ${shown}"]`)).toHaveCount(1);
});

test('reject needs a reason; Escape closes the dialog and returns focus; the gate is sent back until a new version', async ({ servedPage: page, project }) => {
  await openInbox(page, 'F-2-spec');
  await expect(page.getByTestId('inbox-count')).toHaveText(/^[1-9]\d*$/);
  const waiting = Number(await page.getByTestId('inbox-count').textContent());
  const reject = page.getByTestId('reject');
  await reject.click();
  const dialog = page.getByTestId('reject-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByRole('dialog', { name: /Reject the spec/ })).toBeVisible();
  await expect(page.getByTestId('reject-reason')).toBeFocused();
  const submit = page.getByTestId('reject-submit');
  await expect(submit).toBeDisabled();
  await page.getByTestId('reject-reason').fill('   ');
  await expect(submit).toBeDisabled();

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(reject).toBeFocused();

  await reject.click();
  await page.getByTestId('reject-reason').fill('Say which cards are accepted.');
  await expect(submit).toBeEnabled();
  await submit.click();
  // The first decision of this run asks who decides.
  await page.getByTestId('identity-confirm').click();

  // A rejected gate leaves "Ready to decide": it is sent back, with the note, until its author
  // answers; the focus goes on to the next decision you can make, never back to it.
  const sentBack = page.getByRole('list', { name: /Sent back/ }).getByTestId('inbox-item-F-2-spec');
  await expect(sentBack).toContainText('rejected');
  await expect(sentBack).toContainText('Say which cards are accepted.');
  await expect(sentBack).toContainText(/sent back by .+; waiting for a new version/);
  // One decision fewer waits: the badge and the window's title follow.
  await expect(page.getByTestId('inbox-count')).toHaveText(String(waiting - 1));
  await expect(page).toHaveTitle(waiting - 1 > 0 ? new RegExp(`^\\(${waiting - 1}\\) .+ — Baton$`) : /^[^(].* — Baton$/);
  await expect(page.getByRole('list', { name: /Ready to decide/ }).getByTestId('inbox-item-F-2-spec')).toHaveCount(0);
  await expect(sentBack).not.toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('list', { name: /Ready to decide/ }).locator('[aria-current="true"]')).toHaveCount(1);
  // A new version of the spec makes it a decision again, with no Reload.
  project.writeArtifact('F-2', 'feature-spec.json', specOf('F-2', 'Shoppers pay by card: Visa and Mastercard are accepted.'));
  await expect(page.getByRole('list', { name: /Ready to decide/ }).getByTestId('inbox-item-F-2-spec')).toBeVisible({ timeout: 5_000 });
  await page.getByTestId('nav-gates').click();
  const row = page.getByTestId('gate-F-2-spec');
  await expect(row.locator('th, td').nth(1)).toHaveText('rejected');
  await expect(row).toContainText('Say which cards are accepted.');
});

test('an artifact that changes while it is read is reloaded, never approved stale', async ({ servedPage: page, project }) => {
  await openInbox(page, 'F-3-spec');
  for (const name of SPEC_ARTIFACTS) await artifact(page, name).getByTestId('open-evidence').click();
  const spec = artifact(page, 'feature-spec.json');
  await expect(spec).toContainText('Shoppers pay for the items in their basket.');
  await expect(page.getByTestId('approve')).toBeEnabled();

  project.writeArtifact('F-3', 'feature-spec.json', specOf('F-3', 'Shoppers pay by card or by voucher.'));
  await page.getByTestId('approve').click();
  await page.getByTestId('identity-confirm').click();

  await expect(page.getByTestId('decision-error')).toContainText('This artifact changed while you were reading it — reloaded');
  // Still waiting: the new version is loaded, closed until the person opens it again.
  await expect(page.getByTestId('inbox-item-F-3-spec')).toHaveCount(1);
  await expect(spec.getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'false');
  await expect(page.getByTestId('approve')).toBeDisabled();
  await spec.getByTestId('open-evidence').click();
  await expect(spec).toContainText('Shoppers pay by card or by voucher.');
  await expect(spec).not.toContainText('Shoppers pay for the items in their basket.');

  await expect(page.getByTestId('approve')).toBeEnabled();
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('inbox-item-F-3-spec')).toHaveCount(0);
  await page.getByTestId('nav-gates').click();
  const approved = jcsSha256(project.readArtifact('F-3', 'feature-spec.json'));
  await expect(page.getByTestId('gate-F-3-spec').locator(`[title="sha256 ${approved}"]`)).toHaveCount(1);
});

test('opened marks last across navigation and a reload, per artifact hash', async ({ servedPage: page }) => {
  await openInbox(page, 'F-4-spec');
  for (const name of SPEC_ARTIFACTS.slice(0, 2)) await artifact(page, name).getByTestId('open-evidence').click();
  const marked = async () => {
    for (const name of SPEC_ARTIFACTS.slice(0, 2)) await expect(artifact(page, name).getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'true');
    await expect(artifact(page, SPEC_ARTIFACTS[2]!).getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'false');
    await expect(page.getByTestId('approve')).toBeDisabled();
  };
  await marked();
  // Away to another screen and back.
  await page.getByTestId('nav-gates').click();
  await openInbox(page, 'F-4-spec');
  await marked();
  // A reload of the page.
  await page.reload();
  await openInbox(page, 'F-4-spec');
  await marked();
  // The button says what it does.
  const toggle = artifact(page, SPEC_ARTIFACTS[2]!).getByTestId('open-evidence');
  await expect(toggle).toContainText('Show artifact');
  await toggle.click();
  await expect(toggle).toContainText('Hide artifact');
  await expect(page.getByTestId('approve')).toBeEnabled();
});
