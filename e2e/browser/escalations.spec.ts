/**
 * Escalations in the inbox, on a real Baton project whose ledger holds cycles that gave up: each
 * shows its reason, counters and the runner's output; Retry and Set aside record a decision as the
 * confirmed identity and the next entry opens; Abandon needs a reason; a decision someone else made
 * meanwhile is refused inline. (A review bundle: escalations-bundle.spec.ts.)
 */
import { join } from 'node:path';
import { GIT_IDENTITY } from './support/baton-project';
import { decisionsOf, escalationEntry as entry, escalationSeed as seed, openEscalation } from './support/escalated-project';
import { ARTIFACTS_DIR } from './support/paths';
import { escalatedProject, expect, serving } from './support/served';

const T1_STDOUT = 'FAIL tests/checkout.test.ts > a valid card pays the order\nAssertionError: expected "pending" to be "paid"\n';

const test = serving(
  escalatedProject(
    [
      seed('F-1', 'T1', {
        reason: 'repair budget spent: 3 repairs and the order is still pending',
        stdout: T1_STDOUT,
        stderr: 'warning: the payment stub answered 402\n',
        failure: 'T1 failed: expected "pending" to be "paid"',
        repairs: 3,
        violations: 1,
        rejectedRed: 2,
      }),
      seed('F-1', 'T2'),
      seed('F-2', 'T1'),
      seed('F-3', 'T1'),
    ],
    { features: ['F-1', 'F-2', 'F-3'] },
  ),
);

test.describe('a writable project', () => {
  test('an escalation shows why and the failing run; Retry as the confirmed identity records it and opens the next', async ({ servedPage: page, project }) => {
    const count = page.getByTestId('inbox-count');
    await expect(count).toHaveText(/^\d+$/);
    const before = Number(await count.textContent());

    await page.getByTestId('nav-inbox').click();
    // Oldest first, in a section of their own, each with its description, feature and wait.
    const list = page.getByRole('list', { name: /Escalations/ });
    await expect(list.locator('[data-testid^="inbox-escalation-"]')).toHaveCount(4);
    await expect(list.locator('[data-testid^="inbox-escalation-"]').first()).toHaveAttribute('data-testid', 'inbox-escalation-F-1-T1');
    await expect(entry(page, 'F-1', 'T1')).toContainText('a valid card pays the order');
    await expect(entry(page, 'F-1', 'T1')).toContainText('Checkout F-1');
    await expect(entry(page, 'F-1', 'T1')).toContainText(/waiting/);
    expect(before).toBeGreaterThanOrEqual(4);

    await entry(page, 'F-1', 'T1').click();
    const panel = page.getByTestId('escalation-panel');
    await expect(page.getByTestId('escalation-reason')).toContainText('repair budget spent: 3 repairs and the order is still pending');
    await expect(page.getByTestId('escalation-repairs')).toHaveText('3');
    await expect(page.getByTestId('escalation-violations')).toHaveText('1');
    await expect(page.getByTestId('escalation-rejected-red')).toHaveText('2');
    await expect(page.getByTestId('escalation-criterion')).toContainText('the order is paid');
    const output = page.getByTestId('escalation-runner-output');
    await expect(output).toContainText('T1 failed: expected "pending" to be "paid"');
    await expect(output.locator('[data-name="runner/stdout.txt"] pre')).toHaveText(T1_STDOUT.trimEnd());
    await expect(output.locator('[data-name="runner/stderr.txt"]')).toContainText('the payment stub answered 402');
    await expect(panel.getByTestId('item-record').filter({ hasText: 'cycle.finished' })).toHaveCount(1);
    // Status is a word beside an icon, never colour alone.
    await expect(panel.locator('.evidence-header .badge')).toHaveText('escalated');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'inbox-escalation.png') });

    // Keyboard: the note, then Retry.
    await page.getByTestId('escalation-note').fill('Stub the payment provider; the 402 comes from the sandbox.');
    const retry = page.getByTestId('escalation-retry');
    await expect(retry).toHaveText('Retry as…');
    await retry.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('identity-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('identity-input')).toHaveValue(GIT_IDENTITY);
    await page.getByTestId('identity-confirm').click();

    await expect(entry(page, 'F-1', 'T1')).toHaveCount(0);
    await expect(count).toHaveText(String(before - 1));
    // The next escalation opened, its heading focused, and Retry names who decides.
    await expect(entry(page, 'F-1', 'T2')).toHaveAttribute('aria-current', 'true');
    await expect(page.locator('#escalation-title')).toBeFocused();
    await expect(page.getByTestId('escalation-retry')).toHaveText(`Retry as ${GIT_IDENTITY}`);

    const decided = decisionsOf(project, 'F-1', 'T1');
    expect(decided).toHaveLength(1);
    expect(decided[0]!.actor).toEqual({ kind: 'person', id: GIT_IDENTITY });
    expect(decided[0]!.data).toMatchObject({ decision: 'retry', round: 1, note: 'Stub the payment provider; the 402 comes from the sandbox.' });
  });

  test('Abandon asks for a reason first: Escape cancels, an empty reason cannot be sent', async ({ servedPage: page, project }) => {
    await openEscalation(page, 'F-2', 'T1');
    const abandon = page.getByTestId('escalation-abandon');
    await abandon.click();
    const dialog = page.getByRole('dialog', { name: 'Abandon Checkout F-2' });
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('abandon-reason')).toBeFocused();
    const submit = page.getByTestId('abandon-submit');
    await expect(submit).toBeDisabled();
    await page.getByTestId('abandon-reason').fill('   ');
    await expect(submit).toBeDisabled();

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(abandon).toBeFocused();
    expect(decisionsOf(project, 'F-2', 'T1')).toHaveLength(0);

    await abandon.click();
    await page.getByTestId('abandon-reason').fill('The card provider is being replaced; stop this feature.');
    await submit.click();
    await page.getByTestId('identity-confirm').click();

    await expect(entry(page, 'F-2', 'T1')).toHaveCount(0);
    const decided = decisionsOf(project, 'F-2', 'T1');
    expect(decided).toHaveLength(1);
    expect(decided[0]!.data).toMatchObject({ decision: 'abandon', note: 'The card provider is being replaced; stop this feature.' });
  });

  test('a second escalation is set aside with Set aside', async ({ servedPage: page, project }) => {
    await openEscalation(page, 'F-1', 'T2');
    await page.getByTestId('escalation-skip').click();
    await page.getByTestId('identity-confirm').click();

    await expect(entry(page, 'F-1', 'T2')).toHaveCount(0);
    const decided = decisionsOf(project, 'F-1', 'T2');
    expect(decided).toHaveLength(1);
    expect(decided[0]!.data).toMatchObject({ decision: 'skip', note: null });
    expect(decided[0]!.actor.id).toBe(GIT_IDENTITY);
  });

  test('a decision someone else made meanwhile shows within 2 s, and nothing is recorded twice', async ({ servedPage: page, project }) => {
    await openEscalation(page, 'F-3', 'T1');
    // Decided from the command line while the inbox shows it: the workbench follows the folder, so the
    // escalation leaves the inbox with no Reload (a decision racing it is refused: escalations.test.ts).
    project.baton('resolve', project.dir, '--feature', 'F-3', '--item', 'T1', '--decision', 'skip', '--approver', 'Bo Chen <bo@example.com>');
    await expect(entry(page, 'F-3', 'T1')).toHaveCount(0, { timeout: 2_000 });

    const decided = decisionsOf(project, 'F-3', 'T1');
    expect(decided).toHaveLength(1);
    expect(decided[0]!.actor.id).toBe('Bo Chen <bo@example.com>');
  });
});
