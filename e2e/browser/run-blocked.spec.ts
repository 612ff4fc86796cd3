/**
 * Frozen means frozen while running, in the workbench: an approved test list edited before Run stops
 * the run before any agent turn; the run panel says blocked (in red, naming the file) and links to
 * the Inbox, where the person restores the approved file; the next Run goes on building.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoProject, expect, serving } from './support/served';

const test = serving(demoProject());
test.describe.configure({ timeout: 600_000 });
const SLOW = { timeout: 300_000 };

test('a drifted test list blocks Run; restoring it from the Inbox lets the run go on', async ({ page, served, project: demo }) => {
  const file = join(demo.root, '.baton/features/F-inventory/test-list.json');
  const approved = readFileSync(file, 'utf8');
  const list = JSON.parse(approved) as { items: unknown[] };
  writeFileSync(file, JSON.stringify({ items: list.items.slice(0, 1) }, null, 2) + '\n');

  await page.goto(served.url);
  await test.step('Run stops before any agent turn: blocked, in words and colour, naming the file', async () => {
    await page.getByTestId('run-start').click();
    await expect(page.getByTestId('run-condition')).toHaveAttribute('data-condition', 'blocked', SLOW);
    const outcome = page.getByTestId('run-outcome');
    await expect(outcome).toHaveAttribute('data-outcome', 'blocked');
    await expect(outcome).toHaveClass(/tone-danger/);
    await expect(outcome).toContainText('the test list gate drifted (.baton/features/F-inventory/test-list.json changed since it was approved)');
    await expect(page.getByTestId('run-transcript')).not.toContainText('[scripted]');
    await expect(page.getByTestId('run-phase')).toHaveAttribute('data-condition', 'blocked');
  });

  await test.step('the link opens the Inbox on the blocked run, which names the gate and the file', async () => {
    await page.getByTestId('run-outcome-link').click();
    await expect(page.getByTestId('nav-inbox')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('inbox-block-F-inventory')).toHaveAttribute('aria-current', 'true');
    const panel = page.getByTestId('run-block-panel');
    await expect(panel.getByTestId('block-gate-test_list')).toContainText('drifted');
    await expect(panel.getByTestId('block-file-test-list.json')).toContainText('changed: approved');
  });

  await test.step('Restore asks first, says what is overwritten, and clears the block', async () => {
    await page.getByTestId('restore').click();
    const dialog = page.getByTestId('restore-dialog');
    await expect(dialog).toContainText('These files get their approved content back');
    await expect(dialog).toContainText('test-list.json');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.getByTestId('restore').click();
    await page.getByTestId('restore-confirm').click();
    await page.getByTestId('identity-confirm').click();
    await expect(page.getByTestId('inbox-block-F-inventory')).toHaveCount(0);
    expect(readFileSync(file, 'utf8')).toBe(approved);
  });

  await test.step('the next Run goes on building', async () => {
    await page.getByTestId('run-start').click();
    await expect(page.getByTestId('lifecycle-machine').locator('[aria-current="step"]')).toHaveAttribute('data-state', 'building', SLOW);
    await page.getByTestId('run-stop').click();
    await expect(page.getByTestId('run-condition')).toHaveAttribute('data-condition', 'stopped', SLOW);
  });
});
