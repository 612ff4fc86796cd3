/**
 * Gate conformance in the Inbox, on a real Baton project whose test list leaves AC-2 without a
 * test: the test_list gate lists the problem above the decision bar and Approve stays disabled,
 * even with the evidence opened; once test-list.json covers AC-2 (and the project is reloaded) the
 * section says the gate conforms, and Approve enables after the new test list is opened.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { GIT_IDENTITY } from './support/baton-project';
import { ARTIFACTS_DIR } from './support/paths';
import { batonProject, expect, serving } from './support/served';

const APPROVER = 'Ada <ada@example.com>';
const T1 = { id: 'T1', description: 'a valid card pays the order', ac_id: 'AC-1', status: 'pending', kind: 'behavior' };
const T3 = { id: 'T3', description: 'a declined card leaves the order unpaid', ac_id: 'AC-2', status: 'pending', kind: 'behavior' };

const test = serving(
  batonProject({
    features: ['F-1'],
    prepare: (project) => {
      // Two ACs; the test list covers only AC-1.
      project.writeArtifact('F-1', 'stories/S-1/acs/AC-2.json', {
        id: 'AC-2',
        title: 'Card declined',
        given: 'a basket with one item',
        when: 'the shopper pays with a declined card',
        then: 'the order stays unpaid and the shopper is told why',
      });
      project.writeArtifact('F-1', 'test-list.json', { feature_id: 'F-1', items: [T1] });
      for (const gate of ['spec', 'design']) project.baton('approve', project.dir, '--feature', 'F-1', '--gate', gate, '--yes', '--approver', APPROVER);
    },
  }),
);

const testList = (page: Page) => page.getByTestId('evidence-artifact-test-list.json');

test('an AC without a test blocks the test_list gate until the test list covers it', async ({ servedPage: page, project }) => {
  await page.getByTestId('nav-inbox').click();
  const item = page.getByTestId('inbox-item-F-1-test_list');
  await item.click();
  await expect(item).toHaveAttribute('aria-current', 'true');

  const section = page.getByTestId('conformance');
  await expect(section).toHaveAttribute('data-conforms', 'false');
  await expect(section).toContainText('does not conform (1 problem)');
  const problems = section.getByTestId('conformance-problem');
  await expect(problems).toHaveCount(1);
  await expect(problems.first()).toHaveText('AC-2 (story S-1) has no test-list item: add one that tests it.');
  // The section sits right above the decision bar, and the decision bar says why Approve is off.
  const below = await section.evaluate((el) => el.nextElementSibling?.getAttribute('aria-label'));
  expect(below).toBe('Decision');
  const approve = page.getByTestId('approve');
  await expect(approve).toBeDisabled();
  await expect(page.getByTestId('evidence-panel')).toContainText('Approve is disabled: the test list does not conform (1 problem listed above).');
  // main's reason is not repeated at the top of the evidence.
  await expect(page.getByTestId('approvable-reason')).toHaveCount(0);

  // Opening the evidence does not make it approvable.
  await testList(page).getByTestId('open-evidence').click();
  await expect(testList(page).getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'true');
  await expect(approve).toBeDisabled();
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'conformance.png') });

  // Fixed on disk: AC-2 gets its test. A reload re-reads the project and the evidence with it.
  project.writeArtifact('F-1', 'test-list.json', { feature_id: 'F-1', items: [T1, T3] });
  await page.getByTestId('reload').click();
  await expect(section).toHaveAttribute('data-conforms', 'true');
  await expect(section.getByTestId('conformance-ok')).toHaveText(
    'Conforms: ACs are testable, every AC has a test-list item, every persistence invariant has a test-list item, stories are independent as declared.',
  );
  await expect(section.getByTestId('conformance-problem')).toHaveCount(0);

  // The test list changed, so it must be opened again before Approve enables.
  await expect(testList(page).getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'false');
  await expect(approve).toBeDisabled();
  await testList(page).getByTestId('open-evidence').click();
  await expect(testList(page)).toContainText('a declined card leaves the order unpaid');
  await expect(approve).toBeEnabled();

  // And main agrees: the approval is recorded.
  await approve.click();
  await page.getByTestId('identity-confirm').click();
  await expect(page.getByTestId('inbox-item-F-1-test_list')).toHaveCount(0);
  await page.getByTestId('nav-gates').click();
  const cells = page.getByTestId('gate-F-1-test_list').locator('th, td');
  await expect(cells.nth(1)).toHaveText('approved');
  await expect(cells.nth(2)).toHaveText(`${GIT_IDENTITY} · typed, not signed`);
});
