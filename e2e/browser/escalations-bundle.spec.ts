/**
 * An escalation in a review bundle exported from a real Baton project: the Inbox shows it and its
 * evidence, and why nothing can be decided. (A writable project: escalations.spec.ts.)
 */
import { escalationSeed as seed, openEscalation } from './support/escalated-project';
import { escalatedProject, expect, serving } from './support/served';

const test = serving(escalatedProject([seed('F-1', 'T1')], { bundle: true }));

test.describe('a review bundle', () => {
  test('shows the escalation and its evidence, and why nothing can be decided', async ({ servedPage: page }) => {
    await openEscalation(page, 'F-1', 'T1');
    await expect(page.getByTestId('escalation-reason')).toContainText('repair budget spent');
    await expect(page.getByTestId('escalation-runner-output')).toContainText('FAIL T1');
    await expect(page.getByTestId('decision-readonly')).toContainText('review bundle');
    for (const choice of ['escalation-retry', 'escalation-skip', 'escalation-abandon']) await expect(page.getByTestId(choice)).toBeDisabled();
    await expect(page.getByTestId('escalation-note')).toHaveCount(0);
  });
});
