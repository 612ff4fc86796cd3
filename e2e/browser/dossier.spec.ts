/**
 * The story dossier on the Evidence screen (issue 35, part 7), on a Baton project whose ledger holds
 * a spec approval with an agent-like comment and an escalated cycle with repairs and a violation:
 * story → item → cycle in words, a line's link opens its record under Records, and Export HTML
 * downloads the very page `baton dossier` writes, with the comment escaped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { escalate, escalationSeed } from './support/escalated-project';
import { batonProject, expect, serving } from './support/served';

const COMMENT = '<script>alert("dossier")</script> Complete and clear.';

const test = serving(
  batonProject({
    prepare: (project) => {
      project.baton('approve', project.dir, '--feature', 'F-1', '--gate', 'spec', '--approver', 'Ana <ana@example.com>', '--comment', COMMENT, '--yes');
      escalate(project, [escalationSeed('F-1', 'T1', { repairs: 2, violations: 1 })]);
    },
  }),
);

/** The page without the moment it was made: the one thing two exports of the same ledger differ in. */
const timeless = (html: string): string => html.replace(/Made [^<]* from /, 'Made … from ');

test('the dossier groups story → item → cycle, links each line to its record, and exports the CLI’s page', async ({ servedPage: page, project }) => {
  await page.getByTestId('nav-evidence').click();
  await page.getByTestId('evidence-tab-dossier').click();
  await expect(page.getByTestId('evidence-tab-dossier')).toHaveAttribute('aria-selected', 'true');

  const feature = page.getByTestId('dossier-feature-F-1');
  // The spec approval is the feature's own decision, the agent-written comment shown as text.
  const approval = feature.getByTestId('dossier-entry-1');
  await expect(approval).toContainText('✓ approved');
  await expect(approval).toContainText('Ana <ana@example.com>');
  await expect(approval).toContainText(COMMENT);
  const item = feature.getByTestId('dossier-story-S-1').getByTestId('dossier-item-T1');
  const cycle = item.getByTestId('dossier-cycle-F-1/T1');
  await expect(cycle).toContainText('Repair 1: Wrote code that did not pass');
  await expect(cycle).toContainText('✗ violation');
  await expect(cycle).toContainText('The cycle ended escalated');
  await expect(item).toContainText(/Repairs\s*2/);

  // A line's link opens its record under Records.
  await approval.getByTestId('dossier-record-1').click();
  await expect(page).toHaveURL(/#\/evidence\/1$/);
  await expect(page.getByTestId('evidence-tab-records')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('ledger-record-1')).toHaveAttribute('aria-current', 'true');

  // Export HTML: the same page `baton dossier` writes, but for the moment it was made.
  await page.getByTestId('evidence-tab-dossier').click();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('dossier-export').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('dossier-shop.html');
  const saved = join(project.scratch, 'exported.html');
  await download.saveAs(saved);
  await expect(page.getByTestId('dossier-exported')).toContainText('dossier-shop.html');
  const exported = readFileSync(saved, 'utf8');
  expect(exported).not.toContain('<script');
  expect(exported).toContain('&lt;script&gt;alert(&quot;dossier&quot;)&lt;/script&gt;');
  const written = join(project.scratch, 'cli.html');
  project.baton('dossier', project.dir, '--out', written);
  expect(timeless(exported)).toBe(timeless(readFileSync(written, 'utf8')));
});
