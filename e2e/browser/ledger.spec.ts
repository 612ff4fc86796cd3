/**
 * The Evidence screen: the ledger's verification banner, its records (each subject said once), a
 * record's data as readable fields with its raw JSON a click away, its blobs, and a link to a
 * record far down the list (issue 34). (A ledger with no records: ledger-empty.spec.ts.)
 */
import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import { escalate, escalationSeed } from './support/escalated-project';
import { ARTIFACTS_DIR } from './support/paths';
import { batonProject, expect, serving } from './support/served';

/** Escalated cycles after the approval (#1): three records each, #2–#91; T21's is its round 2 (#62–#64). */
const SEEDS = Array.from({ length: 30 }, (_, i) => escalationSeed('F-1', `T${i + 1}`, i === 20 ? { round: 2 } : {}));

const test = serving(
  batonProject({
    prepare: (project) => {
      project.baton(
        'approve',
        project.dir,
        '--feature',
        'F-1',
        '--gate',
        'spec',
        '--approver',
        'Ana <ana@example.com>',
        '--comment',
        'Complete and clear.',
        '--yes',
      );
      escalate(project, SEEDS);
    },
  }),
);

test.describe('a ledger with an approval', () => {
  test('shows the intact banner and the record, its data as fields with the raw JSON a click away, and its blob', async ({ servedPage: page }) => {
    await page.getByTestId('nav-evidence').click();
    await expect(page.getByTestId('nav-evidence')).toHaveAttribute('aria-current', 'page');

    const banner = page.getByTestId('ledger-banner');
    await expect(banner).toHaveAttribute('data-state', 'intact');
    await expect(banner).toContainText(/Ledger intact · \d+ records? · head [0-9a-f]{8}…/);
    await expect(page.getByTestId('ledger-signature')).toHaveText(/signed|unsigned|signature invalid/);

    const record = page.getByTestId('ledger-record-1');
    await expect(record).toContainText('gate.approved');
    await expect(record).toContainText('Ana <ana@example.com>');
    await expect(record.getByTestId('record-subject')).toHaveText('F-1 · spec');
    await record.click();
    await expect(record).toHaveAttribute('aria-current', 'true');
    // The open record is in the URL: a reload or a copied link opens it.
    await expect(page).toHaveURL(/#\/evidence\/1$/);
    // The arrows open the next and the previous record (a shortcut the `?` overlay lists).
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('ledger-record-2')).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('ledger-record-2')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(record).toHaveAttribute('aria-current', 'true');
    await expect(record).toBeFocused();

    const detail = page.getByTestId('record-detail');
    const fields = detail.getByTestId('record-fields');
    await expect(field(fields, 'comment').locator('dd')).toHaveText('Complete and clear.');
    await expect(field(fields, 'approver').locator('dt')).toHaveText('Approver');
    // A map keyed by file: each file as it is named, its hash in mono.
    const spec = field(fields, 'artifacts').locator('[data-key="feature-spec.json"]');
    await expect(spec.locator(':scope > dt')).toHaveText('feature-spec.json');
    await expect(spec.locator('[data-key="sha256"] code')).toHaveText(/^[0-9a-f]{64}$/);
    const raw = detail.getByTestId('record-raw');
    await expect(raw).toBeHidden();
    await detail.getByTestId('record-raw-toggle').click();
    await expect(detail.getByTestId('record-raw-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(raw).toContainText('"comment": "Complete and clear."');

    await detail.locator('[data-testid="record-blob"][data-name="feature-spec.json"]').click();
    const blob = page.getByTestId('blob-view');
    await expect(blob).toContainText('"feature_id": "F-1"');
    await expect(blob).toContainText('Shoppers pay for the items in their basket.');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'timeline.png') });
  });
});

const field = (fields: Locator, key: string) => fields.locator(`:scope > [data-key="${key}"]`);

/** The row is wholly in the list's view, with at least three rows of it above and below (not at an edge). */
async function expectRevealed(page: Page, seq: number): Promise<void> {
  const row = page.getByTestId(`ledger-record-${seq}`);
  await expect(row).toBeInViewport({ ratio: 1 });
  await expect(row).toHaveAttribute('aria-current', 'true');
  await expect(row).toHaveAttribute('data-linked', 'true');
  await expect(row).toBeFocused();
  await expect(page.getByTestId('record-detail')).toContainText(`#${seq}`);
  const list = (await page.getByTestId('ledger-scroll').boundingBox())!;
  const box = (await row.boundingBox())!;
  expect(box.y - list.y).toBeGreaterThan(3 * box.height);
  expect(list.y + list.height - (box.y + box.height)).toBeGreaterThan(3 * box.height);
}

test.describe('a link to a record', () => {
  test('scrolls it into the middle of the list, selects, marks and focuses it, on a fresh load and within the app', async ({ page, served }) => {
    // A fresh load of the link: the record is far below the first screenful of rows. The banner's
    // verdict arrives after the rows and makes the list shorter: the record stays in view.
    await page.goto(`${served.url}#/evidence/64`);
    await expect(page.getByTestId('ledger-banner')).toHaveAttribute('data-state', 'intact');
    await expectRevealed(page, 64);
    // Round 2 of T21's cycle: the subject says the feature, story and item once, and the round.
    await expect(page.getByTestId('ledger-record-64').getByTestId('record-subject')).toHaveText('F-1 · S-1 · T21 #2');
    await expect(page.getByTestId('ledger-record-58').getByTestId('record-subject')).toHaveText('F-1 · S-1 · T19');

    // Within the app, from another record of the timeline (a link from another screen mounts the list as a fresh load does).
    await page.evaluate(() => (window.location.hash = '#/evidence/20'));
    await expectRevealed(page, 20);
    await expect(page.getByTestId('ledger-record-64')).toHaveCount(0);
    // A record opened from the list is only selected: no mark, no jump.
    await page.getByTestId('ledger-record-22').click();
    await expect(page.getByTestId('ledger-record-22')).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('ledger-record-22')).not.toHaveAttribute('data-linked', 'true');
    await expect(page.getByTestId('record-detail')).toContainText('#22');
    await expect(page).toHaveURL(/#\/evidence\/22$/);
  });
});
