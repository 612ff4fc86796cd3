/**
 * Test amendments on a real Baton project whose ledger holds locked items and the Navigator's
 * proposals (recorded by the backend's own proposeAmendment): a pending one is listed and counted
 * in the Inbox, shows its reason, the diff of the locked test against the proposed one and the
 * evidence it would supersede; Reject needs a note, Approve records the decision as the confirmed
 * identity and the entry waits for its re-run; a decision made meanwhile is refused inline, the
 * note kept. From the card drawer the Product Owner proposes one, starting from the locked test.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_IDENTITY } from './support/baton-project';
import { amendmentDecisionsOf, amendmentEntry as entry, amendmentsOf, NAVIGATOR, openAmendment } from './support/amended-project';
import { storedRecords } from './support/escalated-project';
import { cardOf } from './support/locators';
import { ARTIFACTS_DIR } from './support/paths';
import { amendedProject, expect, serving } from './support/served';

const OLD_LINE = "expect(order.status).toBe('paid');";
const NEW_LINE = "expect(order).toMatchObject({ status: 'paid', paidAt: expect.any(String) });";
const testFile = (item: string, expectation: string) =>
  [
    "import { expect, test } from 'vitest';",
    "import { pay } from '../src/checkout.js';",
    '',
    `test('${item}: a valid card pays the order', async () => {`,
    "  const order = await pay({ card: '4242 4242 4242 4242', amount: 1250 });",
    `  ${expectation}`,
    '});',
    '',
  ].join('\n');
const pathOf = (item: string) => `test/${item.toLowerCase()}-checkout.test.js`;
const lockOf = (feature: string, item: string) => ({ feature, item, path: pathOf(item), content: testFile(item, OLD_LINE) });
const proposalOf = (feature: string, item: string, reason: string) => ({ ...lockOf(feature, item), content: testFile(item, NEW_LINE), reason });

const REASON = 'The AC says the order is paid: the test checks the status word only, never that paid_at is set.';
const PO_REASON = 'A paid order must carry the time it was paid: the locked test lets an order without paid_at pass.';
const BO = 'Bo Chen <bo@example.com>';

const test = serving(
  amendedProject(
    [lockOf('F-1', 'T1'), lockOf('F-1', 'T2'), lockOf('F-2', 'T1'), lockOf('F-2', 'T2'), lockOf('F-3', 'T1')],
    [proposalOf('F-1', 'T1', REASON), proposalOf('F-2', 'T1', 'paid_at again, for F-2.'), proposalOf('F-2', 'T2', 'paid_at, for the declined card too.')],
    { features: ['F-1', 'F-2', 'F-3'] },
  ),
);

test('a pending amendment is listed and counted, shows its reason, diff and the evidence it supersedes; Approve records it', async ({
  servedPage: page,
  project,
}) => {
  const count = page.getByTestId('inbox-count');
  await expect(count).toHaveText(/^\d+$/);
  const before = Number(await count.textContent());
  expect(before).toBeGreaterThanOrEqual(3);

  await page.getByTestId('nav-inbox').click();
  const list = page.getByRole('list', { name: /^Test amendments/ });
  const entries = list.locator('[data-testid^="inbox-amendment-"]');
  await expect(entries).toHaveCount(3);
  await expect(entries.first()).toHaveAttribute('data-testid', 'inbox-amendment-F-1-T1');
  await expect(entry(page, 'F-1', 'T1')).toContainText('decision needed');
  await expect(entry(page, 'F-1', 'T1')).toContainText(`by the Navigator (${NAVIGATOR})`);
  await expect(entry(page, 'F-1', 'T1')).toContainText('a valid card pays the order');

  await entry(page, 'F-1', 'T1').click();
  const panel = page.getByTestId('amendment-panel');
  await expect(page.getByTestId('amendment-reason')).toContainText(REASON);
  await expect(page.getByTestId('amendment-proposed-by')).toContainText(`proposed by the Navigator (${NAVIGATOR})`);
  await expect(page.getByTestId('amendment-item')).toContainText('a valid card pays the order');
  // The diff: the locked line taken out, the proposed one put in.
  const diff = panel.getByTestId('amendment-diff');
  await expect(diff).toHaveAttribute('data-path', pathOf('T1'));
  await expect(diff.locator('tr.diff-removed')).toHaveText([new RegExp(literal(OLD_LINE))]);
  await expect(diff.locator('tr.diff-added')).toHaveText([new RegExp(literal(NEW_LINE))]);
  await expect(diff.locator('.diff-stats')).toHaveText('+1 added −1 removed');
  // The records of the cycle that ran against the old version, each a link to the record.
  const usedBy = page.getByTestId('amendment-used-by');
  await expect(usedBy).toContainText('superseded if approved');
  const used = usedBy.getByTestId('amendment-used');
  await expect(used).toHaveCount(4);
  await expect(used.first()).toHaveAttribute('data-type', 'cycle.red');
  await expect(used.first()).toContainText('red');
  const red = storedRecords(project).find((r) => r.type === 'cycle.red' && r.subject.feature === 'F-1' && r.subject.item === 'T1')!;
  await expect(used.first().getByRole('link', { name: 'cycle.red' })).toHaveAttribute('href', `#/evidence/${red.seq}`);
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'inbox-amendment.png') });

  // Reject cannot be sent without a note; the bar says what Approve does.
  const reject = page.getByTestId('amendment-reject');
  await expect(reject).toBeDisabled();
  await expect(page.getByTestId('amendment-reject-hint')).toContainText('Write a note to reject');
  await page.getByTestId('amendment-note').fill('   ');
  await expect(reject).toBeDisabled();
  await expect(page.getByTestId('amendment-consequence')).toContainText('on the next run T1 runs RED and GREEN again, against the amended test');
  await expect(page.getByTestId('amendment-consequence')).toContainText('acceptance of Checkout F-1 waits until then');
  expect(amendmentDecisionsOf(project, 'F-1', 'T1')).toHaveLength(0);

  await page.getByTestId('amendment-note').fill('');
  const approve = page.getByTestId('amendment-approve');
  await expect(approve).toHaveText('Approve as…');
  await approve.click();
  await expect(page.getByTestId('identity-input')).toHaveValue(GIT_IDENTITY);
  await page.getByTestId('identity-confirm').click();

  // Recorded: the entry moves to the approved ones waiting for a re-run, and is no longer counted.
  const rerun = page.getByRole('list', { name: /Amendments approved, waiting for a re-run/ });
  await expect(rerun.getByTestId('inbox-amendment-F-1-T1')).toContainText('approved — re-runs on the next run');
  await expect(entries).toHaveCount(2);
  await expect(count).toHaveText(String(before - 1));
  const decided = amendmentDecisionsOf(project, 'F-1', 'T1');
  expect(decided).toHaveLength(1);
  expect(decided[0]!.actor).toEqual({ kind: 'person', id: GIT_IDENTITY });
  expect(decided[0]!.data).toEqual({ amendment: amendmentsOf(project, 'F-1', 'T1')[0]!.hash, decision: 'approved', note: null });

  // Opened, it says what happens next and offers nothing to decide; its old evidence is superseded.
  await entry(page, 'F-1', 'T1').click();
  await expect(page.getByTestId('amendment-approved')).toContainText(`Approved by ${GIT_IDENTITY}`);
  await expect(page.getByTestId('amendment-approved')).toContainText('T1 runs RED and GREEN again, against the amended test');
  await expect(usedBy.locator('h3')).toHaveText('Evidence that used the old version · superseded');
  await expect(page.getByTestId('amendment-approve')).toHaveCount(0);
  // A record it links to opens on the Evidence screen.
  await used.first().getByRole('link', { name: 'cycle.red' }).click();
  await expect(page.getByTestId('record-detail')).toContainText(`#${red.seq} cycle.red`);

  // The drawer refuses a second amendment while this one waits for its re-run, and says why.
  await page.getByTestId('nav-board').click();
  await cardOf(page, 'F-1', 'T1').click();
  await expect(page.getByTestId('propose-amendment')).toBeDisabled();
  await expect(page.getByTestId('propose-amendment-blocked')).toContainText('has not re-run yet');
});

test('Reject records the note and leaves the inbox; a decision made meanwhile from the CLI shows within 2 s', async ({ servedPage: page, project }) => {
  await openAmendment(page, 'F-2', 'T2');
  const note = page.getByTestId('amendment-note');
  await note.fill('The declined card never gets a paid_at: the locked test is right.');
  await page.getByTestId('amendment-reject').click();
  await page.getByTestId('identity-confirm').click();
  await expect(entry(page, 'F-2', 'T2')).toHaveCount(0);
  const rejected = amendmentDecisionsOf(project, 'F-2', 'T2');
  expect(rejected).toHaveLength(1);
  expect(rejected[0]!.actor).toEqual({ kind: 'person', id: GIT_IDENTITY });
  expect(rejected[0]!.data).toMatchObject({ decision: 'rejected', note: 'The declined card never gets a paid_at: the locked test is right.' });

  await openAmendment(page, 'F-2', 'T1');
  await note.fill('Not this way: paid_at belongs to T2.');
  // Approved from the command line while the inbox shows it pending: the workbench follows the
  // folder (no Reload), so the panel says who decided, and nothing of the PO's is recorded.
  const hash = amendmentsOf(project, 'F-2', 'T1')[0]!.hash;
  project.baton('amend', 'approve', project.dir, '--amendment', hash.slice(0, 12), '--approver', BO);
  await expect(page.getByTestId('amendment-approved')).toContainText(`Approved by ${BO}`, { timeout: 2_000 });
  await expect(page.getByTestId('amendment-reject')).toHaveCount(0);
  const decided = amendmentDecisionsOf(project, 'F-2', 'T1');
  expect(decided).toHaveLength(1);
  expect(decided[0]!.actor.id).toBe(BO);
});

test('the Product Owner proposes an amendment from the card drawer, starting from the locked test', async ({ servedPage: page, project }) => {
  await cardOf(page, 'F-1', 'T2').click();
  const drawer = page.getByTestId('item-drawer');
  await expect(drawer.getByTestId('item-locked-tests')).toContainText(pathOf('T2'));
  const propose = drawer.getByTestId('propose-amendment');
  await propose.click();
  const dialog = page.getByTestId('amendment-dialog');
  await expect(dialog).toBeVisible();
  const content = page.getByTestId('amendment-content');
  await expect(content).toHaveValue(testFile('T2', OLD_LINE));
  await expect(page.getByTestId('amendment-file')).toHaveValue(pathOf('T2'));
  await expect(content).toBeFocused();

  // Escape closes the dialog only: the drawer stays, its button focused again.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(drawer).toBeVisible();
  await expect(propose).toBeFocused();

  // Unchanged, with no reason: nothing is sent, and the dialog says what is missing.
  await propose.click();
  await page.getByTestId('amendment-submit').click();
  await expect(dialog).toContainText('The test is its locked version, unchanged');
  await expect(dialog).toContainText('Say why the test should change');
  await expect(page.getByTestId('identity-dialog')).toHaveCount(0);

  await content.fill(testFile('T2', NEW_LINE));
  await page.getByTestId('amendment-reason-input').fill(PO_REASON);
  await page.getByTestId('amendment-submit').click();
  await page.getByTestId('identity-confirm').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('status-message')).toContainText('waits in the Inbox for a decision');
  await expect(propose).toBeDisabled();
  await expect(drawer.getByTestId('propose-amendment-blocked')).toContainText('waiting for a decision');

  const proposed = amendmentsOf(project, 'F-1', 'T2');
  expect(proposed).toHaveLength(1);
  expect(proposed[0]!.actor).toEqual({ kind: 'person', id: GIT_IDENTITY });
  expect(proposed[0]!.data).toMatchObject({ reason: PO_REASON, files: [{ path: pathOf('T2') }] });

  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await page.getByTestId('nav-inbox').click();
  await expect(entry(page, 'F-1', 'T2')).toContainText(`by ${GIT_IDENTITY}`);
});

test('a proposal refused by the backend is shown in the dialog and what was typed stays', async ({ servedPage: page, project }) => {
  await cardOf(page, 'F-3', 'T1').click();
  await page.getByTestId('propose-amendment').click();
  const content = page.getByTestId('amendment-content');
  await expect(content).toHaveValue(testFile('T1', OLD_LINE));
  const typed = testFile('T1', NEW_LINE);
  await content.fill(typed);
  await page.getByTestId('amendment-reason-input').fill(PO_REASON);

  // Escape in the identity question closes only that question.
  await page.getByTestId('amendment-submit').click();
  await expect(page.getByTestId('identity-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('identity-dialog')).toHaveCount(0);
  await expect(page.getByTestId('amendment-dialog')).toBeVisible();
  await expect(page.getByTestId('item-drawer')).toBeVisible();
  expect(amendmentsOf(project, 'F-3', 'T1')).toHaveLength(0);

  // Someone proposes one for the same item from the command line meanwhile.
  const file = join(project.scratch, 'f3-t1.test.js');
  writeFileSync(file, typed.replace('paidAt', 'paid_at'));
  project.baton(
    'amend',
    'propose',
    project.dir,
    '--feature',
    'F-3',
    '--item',
    'T1',
    '--path',
    pathOf('T1'),
    '--from',
    file,
    '--reason',
    'Mine.',
    '--approver',
    BO,
  );

  await page.getByTestId('amendment-submit').click();
  await page.getByTestId('identity-confirm').click();
  const error = page.getByTestId('amendment-propose-error');
  await expect(error).toHaveAttribute('data-code', 'amendment-open');
  await expect(error).toContainText('T1 already has an amendment waiting for a decision');
  await expect(content).toHaveValue(typed);
  await expect(page.getByTestId('amendment-reason-input')).toHaveValue(PO_REASON);
  const recorded = amendmentsOf(project, 'F-3', 'T1');
  expect(recorded).toHaveLength(1);
  expect(recorded[0]!.actor.id).toBe(BO);

  await page.getByTestId('amendment-cancel').click();
  await expect(page.getByTestId('amendment-dialog')).toHaveCount(0);
  await expect(page.getByTestId('item-drawer')).toBeVisible();
});

/** A line of code as a regular expression that matches it literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
