/**
 * An item escalated because the Driver's code tells a test run apart (issue 30): the Inbox lists each
 * tell, and Allow and retry — which needs a reason — records the allowance (`tells.allowed`, with the
 * tells' ids and the reason) and then the retry, as the confirmed identity. A verdict from a run
 * without the sandbox (issue 31) is marked in the evidence summary.
 */
import { GIT_IDENTITY } from './support/baton-project';
import { decisionsOf, escalationEntry as entry, escalationSeed as seed, openEscalation, storedRecords } from './support/escalated-project';
import { escalatedProject, expect, serving } from './support/served';

const TELL = { file: 'src/t1.js', line: 3, why: 'reads its process ids', text: 'const underTest = () => process.pid < 200;' };

// The line a run without bubblewrap records (electron/process/sandbox.ts).
const UNSANDBOXED = '[sandbox] not available (bwrap is not installed): running unsandboxed — none of the sandbox holds';

const test = serving(
  escalatedProject(
    [
      seed('F-1', 'T1', { reason: "Still failing after 3 repair rounds: The Driver's code tells a test run apart", tells: [TELL] }),
      seed('F-1', 'T2', { runnerSandbox: UNSANDBOXED }),
    ],
    {
      features: ['F-1'],
    },
  ),
);

test('the tells are listed; Allow and retry needs a reason, then records the allowance and the retry', async ({ servedPage: page, project }) => {
  await openEscalation(page, 'F-1', 'T1');
  const tells = page.getByTestId('escalation-tell');
  await expect(tells).toHaveCount(1);
  await expect(tells.first()).toContainText('src/t1.js:3 reads its process ids: const underTest = () => process.pid < 200;');

  const allow = page.getByTestId('escalation-allow-tells');
  await expect(allow).toHaveText('Allow the tell and retry');
  await expect(allow).toBeDisabled();
  await page.getByTestId('escalation-note').fill('   ');
  await expect(allow).toBeDisabled();
  await page.getByTestId('escalation-note').fill('The pid guard is the telemetry sampler the ops team asked for.');
  await allow.click();
  await page.getByTestId('identity-confirm').click();

  await expect(entry(page, 'F-1', 'T1')).toHaveCount(0);
  const allowed = storedRecords(project).filter((r) => r.type === 'tells.allowed');
  expect(allowed).toHaveLength(1);
  expect(allowed[0]!.actor).toEqual({ kind: 'person', id: GIT_IDENTITY });
  expect(allowed[0]!.subject).toMatchObject({ feature: 'F-1', item: 'T1' });
  expect(allowed[0]!.data).toMatchObject({ reason: 'The pid guard is the telemetry sampler the ops team asked for.', tells: [{ ...TELL }] });
  const decided = decisionsOf(project, 'F-1', 'T1');
  expect(decided.map((d) => d.data.decision)).toEqual(['retry']);
  // The next escalation has no tells: no such button.
  await expect(entry(page, 'F-1', 'T2')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('escalation-allow-tells')).toHaveCount(0);
});

test('a verdict from a test run without the sandbox is marked in the evidence summary, and says what it means', async ({ servedPage: page }) => {
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId('inbox-item-F-1-spec').click();
  const summary = page.getByTestId('evidence-summary');
  await expect(summary.getByTestId('proof-unsandboxed-T2')).toBeVisible();
  await expect(summary.getByTestId('proof-unsandboxed-T2')).toHaveAttribute('title', /ran without the sandbox: the code under test could read your files/);
  await expect(summary.getByTestId('proof-unsandboxed-T1')).toHaveCount(0);
  await expect(summary.getByTestId('evidence-unsandboxed')).toContainText('1 item (T2)');
});
