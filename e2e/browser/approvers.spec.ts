/**
 * The approver policy in the Inbox, on a real Baton project whose project.json names who may
 * decide the spec gate: the evidence says who may decide, and an approval by someone else is
 * refused inline with the names — nothing is recorded — while the person named can approve; the
 * Gates screen says that typed approval is unauthenticated (no key signed it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { GIT_IDENTITY } from './support/baton-project';
import { batonProject, expect, serving } from './support/served';

const PO = 'po@shop.example';
const test = serving(
  batonProject({
    prepare: (project) => {
      const file = join(project.dir, '.baton', 'project.json');
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), gates: { spec: ['@po'] }, approverRoles: { po: [PO] } }, null, 2));
    },
  }),
);

const SPEC_ARTIFACTS = ['feature-spec.json', 'stories/S-1/acs/AC-1.json', 'stories/S-1/story.json'];

async function openSpec(page: Page) {
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId('inbox-item-F-1-spec').click();
  for (const name of SPEC_ARTIFACTS)
    await page
      .getByTestId(`evidence-artifact-${name.replaceAll('/', '_')}`)
      .getByTestId('open-evidence')
      .click();
}

test('the Inbox says who may decide; anyone else is refused inline, the person named approves', async ({ servedPage: page }) => {
  await openSpec(page);
  await expect(page.getByTestId('gate-approvers')).toHaveText(`Who may decide: ${PO} (gates.spec in project.json)`);

  await page.getByTestId('approve').click();
  await expect(page.getByTestId('identity-input')).toHaveValue(GIT_IDENTITY);
  await page.getByTestId('identity-confirm').click();
  await expect(page.getByTestId('evidence-panel')).toContainText(`Only ${PO} may decide the spec gate`);
  await expect(page.getByTestId('inbox-item-F-1-spec')).toBeVisible();

  // Deciding as the person the policy names.
  await page.getByTestId('change-identity').click();
  await page.getByTestId('identity-input').fill(`Pat Owner <${PO}>`);
  await page.getByTestId('identity-confirm').click();
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('inbox-item-F-1-spec')).toHaveCount(0);
  await page.getByTestId('nav-gates').click();
  await expect(page.getByTestId('gate-F-1-spec').locator('th, td').nth(2)).toContainText(`Pat Owner <${PO}>`);
  // No key signed it, and the policy names who may decide: the typed name proves nothing, and the screen says so.
  const proof = page.getByTestId('gate-F-1-spec').getByTestId('gate-approver-proof');
  await expect(proof).toHaveText('· unauthenticated');
  await expect(proof).toHaveAttribute('title', /it is not signed, and the policy in \.baton\/project\.json names who may decide the spec gate/);
  await expect(page.getByTestId('gate-F-1-spec').locator('th, td').nth(2)).toHaveText(`Pat Owner <${PO}> · unauthenticated`);
});
