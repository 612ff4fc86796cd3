/**
 * Approve with exceptions (issue 32) on a real Baton project: S-1's items never went GREEN, so its
 * acceptance cannot be approved — Approve stays disabled with the reason, and the unproven AC is
 * listed with why. "Approve with exceptions…" is a separate act: a dialog that lists the AC, needs a
 * reason, and records both with the approval, which then shows "Approved with exceptions" for good.
 */
import { join } from 'node:path';
import { GIT_IDENTITY } from './support/baton-project';
import { storedRecords } from './support/escalated-project';
import { ARTIFACTS_DIR } from './support/paths';
import { batonProject, expect, serving } from './support/served';

const APPROVER = 'Ana <ana@example.com>';
const test = serving(
  batonProject({
    prepare: (project) => {
      for (const gate of ['spec', 'design', 'test_list'])
        project.baton('approve', project.dir, '--feature', 'F-1', '--gate', gate, '--approver', APPROVER, '--yes');
    },
  }),
);

const ENTRY = 'inbox-item-F-1-acceptance-S-1';
const WHY = 'T1 is not GREEN (pending); T2 is not GREEN (pending)';
const REASON = 'Card payments ship behind a flag; T1 and T2 are built next sprint.';

test('an acceptance with an unproven AC is approved only with exceptions, and shows them after', async ({ servedPage: page, project }) => {
  const approve = page.getByTestId('approve');
  const withExceptions = page.getByTestId('approve-exceptions');

  await test.step('the Inbox lists it as waiting on proof, with the unproven AC and why', async () => {
    await page.getByTestId('nav-inbox').click();
    await expect(page.getByRole('list', { name: /Waiting on evidence or proof/ }).getByTestId(ENTRY)).toContainText('needs proof or an exception');
    await page.getByTestId(ENTRY).click();
    await expect(page.getByTestId(ENTRY)).toHaveAttribute('aria-current', 'true');
    const notice = page.getByTestId('unproven-acs');
    await expect(notice).toContainText('Cannot be approved now: an AC is not proven.');
    await expect(notice.getByTestId('unproven-ac-AC-1')).toContainText('AC-1');
    await expect(notice.getByTestId('unproven-ac-AC-1')).toContainText('Card accepted');
    await expect(notice.getByTestId('unproven-ac-AC-1')).toContainText(WHY);
  });

  await test.step('Approve stays disabled with the reason; Approve with exceptions waits for every artifact to be opened', async () => {
    await expect(approve).toBeDisabled();
    await expect(page.getByTestId('approve-blocked')).toHaveText(
      'Approve needs every AC proven; AC-1 is not (see above). Approve with exceptions… accepts the story anyway.',
    );
    await expect(approve).toHaveAttribute('aria-describedby', 'approve-blocked');
    await expect(withExceptions).toHaveText('Approve with exceptions…');
    await expect(withExceptions).toBeDisabled();
    await expect(page.getByTestId('exceptions-blocked')).toContainText('Open every artifact to enable Approve with exceptions');
    const artifacts = page.locator('[data-testid^="evidence-artifact-"]');
    expect(await artifacts.count()).toBeGreaterThan(0);
    for (const card of await artifacts.all()) await card.getByTestId('open-evidence').click();
    await expect(withExceptions).toBeEnabled();
    await expect(page.getByTestId('exceptions-blocked')).toHaveCount(0);
    // Opening the artifacts is not proof: Approve itself stays disabled.
    await expect(approve).toBeDisabled();
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'accept-exceptions-inbox.png') });
  });

  await test.step('the dialog lists the AC with why, needs a reason, and Escape cancels it', async () => {
    await withExceptions.click();
    const dialog = page.getByRole('dialog', { name: 'Approve the acceptance of story S-1 of Checkout F-1 with exceptions' });
    await expect(dialog).toBeVisible();
    const listed = dialog.getByTestId('exceptions-ac-AC-1');
    for (const words of ['AC-1', 'Card accepted', WHY]) await expect(listed).toContainText(words);
    await expect(dialog.getByTestId('exceptions-consequence')).toContainText('recorded with the approval in the ledger and shown with it for good');
    await expect(page.getByTestId('exceptions-reason')).toBeFocused();
    const confirm = page.getByTestId('exceptions-submit');
    await expect(confirm).toHaveText('Approve with exceptions');
    await expect(confirm).toBeDisabled();
    await page.getByTestId('exceptions-reason').fill('   ');
    await expect(confirm).toBeDisabled();

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(withExceptions).toBeFocused();
    // Cancelling recorded nothing.
    expect(storedRecords(project).filter((r) => r.type === 'gate.approved' && r.subject.story === 'S-1')).toEqual([]);
  });

  await test.step('with a reason it approves, naming the AC', async () => {
    await withExceptions.click();
    await page.getByTestId('exceptions-reason').fill(REASON);
    await expect(page.getByTestId('exceptions-submit')).toBeEnabled();
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'accept-exceptions-dialog.png') });
    await page.getByTestId('exceptions-submit').click();
    // The first decision of this run asks who decides.
    await expect(page.getByTestId('identity-input')).toHaveValue(GIT_IDENTITY);
    await page.getByTestId('identity-confirm').click();
    await expect(page.getByTestId(ENTRY)).toHaveCount(0);

    const approvals = storedRecords(project).filter((r) => r.type === 'gate.approved' && r.subject.story === 'S-1');
    expect(approvals).toHaveLength(1);
    expect(approvals[0]!.actor).toEqual({ kind: 'person', id: GIT_IDENTITY });
    expect(approvals[0]!.data.exceptions).toEqual([{ ac: 'AC-1', why: WHY }]);
    expect(approvals[0]!.data.exceptionReason).toBe(REASON);
  });

  await test.step('the Gates view shows the approval with its exceptions', async () => {
    await page.getByTestId('nav-gates').click();
    const row = page.locator('[data-testid="gate-F-1-acceptance"][data-story="S-1"]');
    await expect(row.locator('th, td').nth(1)).toHaveText('approved');
    await expect(row.locator('th, td').nth(2)).toHaveText(`${GIT_IDENTITY} · typed, not signed`);
    const note = page.locator('[data-testid="gate-exceptions-F-1-acceptance"][data-story="S-1"]').getByTestId('gate-exceptions');
    await expect(note.getByTestId('gate-exceptions-badge')).toHaveText('Approved with exceptions');
    await expect(note.getByTestId('gate-exception-AC-1')).toHaveText(`AC-1 Card accepted unproven (${WHY})`);
    await expect(note.getByTestId('gate-exceptions-reason')).toHaveText(`Reason: “${REASON}”`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'accept-exceptions-gates.png') });
  });

  await test.step('so does the story in Specs', async () => {
    await page.getByTestId('nav-specs').click();
    const note = page.getByTestId('story-S-1').getByTestId('gate-exceptions');
    await expect(note.getByTestId('gate-exceptions-badge')).toHaveText('Approved with exceptions');
    await expect(note.getByTestId('gate-exception-AC-1')).toContainText(WHY);
    await expect(note).toContainText(REASON);
  });

  await test.step('and the Inbox, when the approved story changes and its acceptance waits again', async () => {
    project.writeArtifact('F-1', 'stories/S-1/story.json', {
      id: 'S-1',
      title: 'Pay by card or voucher',
      as_a: 'shopper',
      i_want: 'to pay for my basket with a card or a voucher',
      so_that: 'I get my order',
    });
    // As drift.spec.ts does: Reload reads the project again now.
    await page.getByTestId('reload').click();
    await page.getByTestId('nav-inbox').click();
    await page.getByTestId(ENTRY).click();
    await expect(page.getByTestId(ENTRY)).toContainText('drifted');
    const note = page.getByTestId('evidence-panel').getByTestId('gate-exceptions');
    await expect(note.getByTestId('gate-exceptions-badge')).toHaveText('Approved with exceptions');
    await expect(note.getByTestId('gate-exception-AC-1')).toHaveText(`AC-1 Card accepted unproven (${WHY})`);
    await expect(note.getByTestId('gate-exceptions-reason')).toHaveText(`Reason: “${REASON}”`);
  });
});
