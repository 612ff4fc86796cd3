/**
 * New feature (intake) from the workbench, on a fresh Baton project (`git init` + `baton init`, no
 * features): the dialog takes a title, a one-paragraph request, an attachment and who asks; main
 * writes the feature folder and records `feature.requested`; the feature opens in Specs. A refused
 * request (an existing feature) shows main's message in the dialog and loses nothing typed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { GIT_IDENTITY } from './support/baton-project';
import { ARTIFACTS_DIR } from './support/paths';
import { batonProject, expect, serving } from './support/served';

const test = serving(batonProject({ features: [] }));

const REQUEST =
  'Shoppers pay part or all of an order with a gift card at checkout, so that people who received one can use it without calling support; it serves shoppers and the support team.';
const OVERVIEW = '# Gift cards\n\nCards are 16 digits with a PIN. Balances never go below zero.\n';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface LoggedRecord {
  readonly type: string;
  readonly actor: { readonly id: string };
  readonly subject: { readonly feature?: string };
  readonly data: { readonly title?: string; readonly request?: string; readonly attachments?: Record<string, string> };
  readonly blobs: readonly { readonly name: string; readonly sha256: string }[];
}

async function openDialog(page: Page) {
  await page.getByTestId('new-feature').click();
  const dialog = page.getByRole('dialog', { name: 'New feature' });
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('new-feature-title')).toBeFocused();
  return dialog;
}

test('a new feature from a request and an attachment: created on disk, recorded, shown in Specs', async ({ servedPage: page, project }) => {
  await expect(page.getByTestId('project-name')).toBeVisible();
  const dialog = await openDialog(page);

  // Empty fields are refused here, in main's words, and nothing is sent.
  await page.getByTestId('new-feature-submit').click();
  await expect(dialog).toContainText('The title is empty: give the feature a short name.');
  await expect(dialog).toContainText('The request is empty: write one paragraph saying what the feature is for and who it serves.');
  await expect(page.getByTestId('new-feature-title')).toBeFocused();
  await expect(page.getByTestId('new-feature-title')).toHaveAttribute('aria-invalid', 'true');

  await page.getByTestId('new-feature-title').fill('Gift cards at checkout');
  // The default id, as main makes it from the title.
  await expect(page.getByTestId('new-feature-id')).toHaveAttribute('placeholder', 'F-gift-cards-at-checkout');
  await page.getByTestId('new-feature-request').fill(REQUEST);
  await expect(dialog).toContainText('One paragraph: what the feature is for and who it serves.');
  // Who asks is prefilled from git.
  await expect(page.getByTestId('new-feature-requester')).toHaveValue(GIT_IDENTITY);

  // A binary file is refused with the reason; a text file is read and listed.
  const files = page.getByTestId('new-feature-attachments');
  await files.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('new-feature-attachment-problems')).toContainText('logo.png is not a text file');
  await files.setInputFiles([
    { name: 'product overview.md', mimeType: 'text/markdown', buffer: Buffer.from(OVERVIEW) },
    { name: 'scratch.txt', mimeType: 'text/plain', buffer: Buffer.from('to be removed') },
  ]);
  await expect(page.getByTestId('attachment-product-overview.md')).toContainText('from product overview.md');
  await page.getByTestId('attachment-remove-scratch.txt').click();
  await expect(page.getByTestId('attachment-scratch.txt')).toHaveCount(0);
  await expect(page.getByTestId('new-feature-attachment-list').getByRole('listitem')).toHaveCount(1);

  await page.screenshot({ path: join(ARTIFACTS_DIR, 'new-feature.png') });

  // Ctrl+Enter creates it from any field.
  await page.getByTestId('new-feature-request').press('Control+Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('status-message')).toContainText(
    'Feature F-gift-cards-at-checkout created from the request. Run it to have the Spec Author write the spec.',
  );
  await expect(page.getByTestId('nav-specs')).toHaveAttribute('aria-current', 'page');
  const feature = page.getByTestId('feature-F-gift-cards-at-checkout');
  await expect(feature).toHaveAttribute('aria-current', 'true');
  await expect(feature.getByRole('heading', { level: 2 })).toHaveText('Gift cards at checkout');
  await expect(feature).toContainText(REQUEST);
  await expect(feature.getByRole('heading', { level: 2 })).toBeFocused();

  // On disk: the request, the attachment under its plain name.
  const folder = join(project.dir, '.baton', 'features', 'F-gift-cards-at-checkout');
  expect(readFileSync(join(folder, 'request.md'), 'utf8')).toBe(`${REQUEST}\n`);
  expect(readFileSync(join(folder, 'attachments', 'product-overview.md'), 'utf8')).toBe(OVERVIEW);

  // In the ledger: who asked, and the hash of each file as written.
  const log = JSON.parse(project.baton('log', project.dir, '--json')) as { records: LoggedRecord[]; chain: { ok: boolean } };
  expect(log.chain.ok).toBe(true);
  const requested = log.records.filter((r) => r.type === 'feature.requested');
  expect(requested).toHaveLength(1);
  expect(requested[0]!.subject.feature).toBe('F-gift-cards-at-checkout');
  expect(requested[0]!.actor.id).toBe(GIT_IDENTITY);
  expect(requested[0]!.data.title).toBe('Gift cards at checkout');
  expect(requested[0]!.data.request).toBe(sha256(`${REQUEST}\n`));
  expect(requested[0]!.data.attachments).toEqual({ 'product-overview.md': sha256(OVERVIEW) });
  expect(requested[0]!.blobs.map((b) => b.name).sort()).toEqual(['attachments/product-overview.md', 'request.md']);
});

test('the same title again is refused with main’s message, and everything typed stays', async ({ servedPage: page, project }) => {
  const create = async (request: string) => {
    await openDialog(page);
    await page.getByTestId('new-feature-title').fill('Loyalty points');
    await page.getByTestId('new-feature-request').fill(request);
    await page
      .getByTestId('new-feature-attachments')
      .setInputFiles({ name: 'tiers.md', mimeType: 'text/markdown', buffer: Buffer.from('Bronze, silver, gold.\n') });
    await expect(page.getByTestId('attachment-tiers.md')).toBeVisible();
    await page.getByTestId('new-feature-submit').click();
  };
  await create('Regular shoppers collect points on every order and spend them on later orders.');
  await expect(page.getByTestId('feature-F-loyalty-points')).toBeVisible();

  const second = 'Points expire after a year unless the shopper orders again.';
  await create(second);
  const error = page.getByTestId('new-feature-error');
  await expect(error).toHaveAttribute('data-code', 'exists');
  await expect(error).toContainText('The feature was not created');
  await expect(error).toContainText('Feature F-loyalty-points already exists');
  // Nothing typed is lost, and the id field (the way out) has the focus.
  await expect(page.getByTestId('new-feature-title')).toHaveValue('Loyalty points');
  await expect(page.getByTestId('new-feature-request')).toHaveValue(second);
  await expect(page.getByTestId('attachment-tiers.md')).toBeVisible();
  await expect(page.getByTestId('new-feature-id')).toBeFocused();

  // Escape closes; the draft is still there when it opens again.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'New feature' })).toHaveCount(0);
  await openDialog(page);
  await expect(page.getByTestId('new-feature-request')).toHaveValue(second);
  await expect(page.getByTestId('attachment-tiers.md')).toBeVisible();

  // Another id creates it.
  await page.getByTestId('new-feature-id').fill('F-loyalty-expiry');
  await page.getByTestId('new-feature-submit').click();
  await expect(page.getByTestId('status-message')).toContainText('Feature F-loyalty-expiry created from the request.');
  await expect(page.getByTestId('feature-F-loyalty-expiry')).toHaveAttribute('aria-current', 'true');
  expect(readFileSync(join(project.dir, '.baton', 'features', 'F-loyalty-expiry', 'request.md'), 'utf8')).toBe(`${second}\n`);
  // The refused attempt recorded nothing.
  const log = JSON.parse(project.baton('log', project.dir, '--json')) as { records: LoggedRecord[] };
  expect(log.records.filter((r) => r.type === 'feature.requested').map((r) => r.subject.feature)).toEqual(
    expect.arrayContaining(['F-loyalty-points', 'F-loyalty-expiry']),
  );
  expect(log.records.filter((r) => r.type === 'feature.requested' && r.subject.feature === 'F-loyalty-points')).toHaveLength(1);
});
