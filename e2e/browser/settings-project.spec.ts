/**
 * The Settings screen's project settings in Chromium through the browser host: a value the schema
 * refuses is said next to its field with nothing typed lost, the changes are shown as a diff (the
 * webhook masked) before they are saved, and project.json on disk holds them with the rest kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonProject, expect, serving } from './support/served';

const test = serving(batonProject());
const SECRET = 'https://ntfy.sh/baton-e2e-secret-topic';

test('edits the gate policy, budgets, thresholds and webhook, confirms the diff, and saves project.json', async ({ servedPage: page, project }) => {
  const file = join(project.dir, '.baton', 'project.json');
  const before = readFileSync(file, 'utf8');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-project')).toBeVisible();
  await expect(page.getByTestId('setting-repairBudget')).toHaveValue('3');
  await expect(page.getByTestId('project-settings-save')).toBeDisabled();
  await expect(page.getByTestId('setting-notify-webhook-current')).toContainText('(none)');

  await page.getByTestId('setting-repairBudget').fill('5');
  await page.getByTestId('setting-parallel').fill('2');
  await page.getByTestId('setting-gates-acceptance').fill('@po');
  await page.getByTestId('setting-smells-stallFactor').fill('1');
  await page.getByTestId('setting-notify-webhook').fill(SECRET);
  await expect(page.getByTestId('project-settings-save')).toBeEnabled();

  // Main's schema refuses two values: each is said beside its field, nothing is written, nothing typed is lost.
  await page.getByTestId('project-settings-save').click();
  await expect(page.getByTestId('setting-smells-stallFactor-problem')).toContainText('must be more than 1');
  await expect(page.getByTestId('settings-group-gates-problem')).toContainText('po');
  await expect(page.getByTestId('project-settings-confirm')).toHaveCount(0);
  expect(readFileSync(file, 'utf8')).toBe(before);
  await expect(page.getByTestId('setting-repairBudget')).toHaveValue('5');

  await page.getByTestId('setting-smells-stallFactor').fill('4');
  await page.getByTestId('setting-approverRoles').fill('po: ada@example.com');
  await page.getByTestId('project-settings-save').click();

  // The confirm step: every change old → new, the webhook masked.
  const diff = page.getByTestId('project-settings-diff');
  await expect(diff).toBeVisible();
  await expect(page.getByTestId('project-settings-diff-repairBudget')).toContainText(/3\s*5/);
  await expect(page.getByTestId('project-settings-diff-parallel')).toContainText(/\(default\)\s*2/);
  await expect(page.getByTestId('project-settings-diff-gates.acceptance')).toContainText('@po');
  await expect(page.getByTestId('project-settings-diff-approverRoles.po')).toContainText('ada@example.com');
  await expect(page.getByTestId('project-settings-diff-smells.stallFactor')).toContainText(/\(default\)\s*4/);
  await expect(page.getByTestId('project-settings-diff-notify.webhook')).toContainText('https://ntfy.sh/… (hidden)');
  await expect(diff).not.toContainText('secret-topic');
  expect(readFileSync(file, 'utf8')).toBe(before);
  await page.getByTestId('project-settings-confirm-save').click();

  await expect(page.getByTestId('project-settings-saved')).toBeVisible();
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  expect(saved).toMatchObject({
    repairBudget: 5,
    parallel: 2,
    gates: { acceptance: ['@po'] },
    approverRoles: { po: ['ada@example.com'] },
    smells: { stallFactor: 4 },
    notify: { webhook: SECRET },
  });
  const { repairBudget: _r, parallel: _p, gates: _g, approverRoles: _a, smells: _s, notify: _n, ...rest } = saved;
  const { repairBudget: _rb, ...was } = JSON.parse(before) as Record<string, unknown>;
  expect(rest).toEqual(was);

  // Saved: nothing left to save, the webhook shown masked and never in the page.
  await expect(page.getByTestId('project-settings-save')).toBeDisabled();
  await expect(page.getByTestId('setting-notify-webhook-current')).toContainText('https://ntfy.sh/… (hidden)');
  await expect(page.getByTestId('setting-repairBudget')).toHaveValue('5');
  expect(await page.content()).not.toContain('secret-topic');

  // A change made on disk by another process shows without Reload, and leaves nothing to save.
  writeFileSync(file, `${JSON.stringify({ ...saved, testTimeoutSeconds: 90 }, null, 2)}\n`);
  await expect(page.getByTestId('setting-testTimeoutSeconds')).toHaveValue('90');
  await expect(page.getByTestId('project-settings-save')).toBeDisabled();
});
