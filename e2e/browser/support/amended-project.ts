/**
 * Test amendments in a real Baton project: an item's finished cycle as the engine records it (its
 * RED keeping the test file, the LOCK with the locked file as a `locked/<path>` blob, GREEN, the
 * cycle's end and the item's status), appended with the project's own Ledger class through tsx; then
 * the Navigator's proposals, recorded by the backend's own `proposeAmendment`, refusals and all.
 */
import { expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import type { BatonProject } from './baton-project';
import { storedRecords, type StoredRecord } from './escalated-project';
import { REPO_ROOT } from './paths';

/** An item whose tests are locked: its one test file, as its RED wrote it. */
export interface LockSeed {
  readonly feature: string;
  readonly item: string;
  readonly path: string;
  readonly content: string;
}

/** The Navigator's proposal: new content for the item's locked file, and why. */
export interface ProposalSeed {
  readonly feature: string;
  readonly item: string;
  readonly path: string;
  readonly content: string;
  readonly reason: string;
}

/** The Navigator as the scripted agent names itself in a proposal's actor. */
export const NAVIGATOR = 'navigator:scripted';

const SEED = `
const { readFileSync } = await import('node:fs');
const { createHash } = await import('node:crypto');
const { join } = await import('node:path');
const { Ledger } = await import('./electron/ledger/index.ts');
const { readProject } = await import('./electron/project/index.ts');
const { proposeAmendment } = await import('./electron/gates/amendments.ts');
const { root, locks, proposals, navigator } = JSON.parse(readFileSync(0, 'utf8'));
const ledger = Ledger.forArtifactRoot(join(root, '.baton'));
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const actor = { kind: 'orchestrator', id: 'baton' };
const turn = { attempt: 1, violations: 0, kept: [], outOfScope: [], turnMs: 1200, agentExitCode: 0, tells: [] };
const totals = (passed, failed) => ({ passed, failed, errored: 0, skipped: 0 });
for (const { feature, item, path, content } of locks) {
  const subject = { feature, story: 'S-1', item, cycle: feature + '/' + item };
  const cases = (status) => [{ id: path + ' > ' + item, status, message: status === 'failed' ? 'expected 400 to be 404' : null }];
  const red = await ledger.append({
    type: 'cycle.red', actor, subject,
    data: { ...turn, key: 'red:1', kept: [{ kind: 'added', path }], cases: cases('failed'), totals: totals(0, 1), tree: 'e'.repeat(40),
      verdict: 'red', detail: 'failing: ' + item, failing: [path + ' > ' + item], worktree: '/tmp/red-' + item },
    blobs: [{ name: 'runner/stdout.txt', content: 'FAIL ' + path + '\\n' }],
  });
  const lock = await ledger.append({
    type: 'cycle.locked', actor, subject,
    data: { key: 'lock', files: [{ path, sha256: sha256(content), bytes: Buffer.byteLength(content), mode: 0o100644 }], testCommand: 'npm test',
      testCommandSha256: sha256('npm test'), cases: cases('failed'), red: red.hash, tree: null },
    blobs: [{ name: 'locked/' + path, content }],
  });
  const green = await ledger.append({
    type: 'cycle.green', actor, subject,
    data: { ...turn, key: 'green:1', cases: cases('passed'), totals: totals(1, 0), tree: 'f'.repeat(40), verdict: 'green', failure: null, escalate: null, lock: lock.hash },
    blobs: [{ name: 'runner/stdout.txt', content: 'PASS ' + path + '\\n' }],
  });
  await ledger.append({
    type: 'cycle.finished', actor, subject,
    data: { key: 'finished', item, status: 'done', repairs: 0, violations: 0, rejectedRed: 0, refactors: 0, smell: null, reason: null,
      greenRecord: green.hash, cycle: subject.cycle, round: 1 },
  });
  await ledger.append({ type: 'item.status', actor, subject, data: { key: 'status:green', item, status: 'green' } });
}
const read = await readProject(root);
if (!read.ok) throw new Error(read.error.message);
for (const { feature, item, path, content, reason } of proposals) {
  const result = await proposeAmendment(read.value, ledger, { feature, item, files: [{ path, content }], reason, by: { kind: 'agent', id: navigator } });
  if (!result.ok) throw new Error(result.error.code + ': ' + result.error.message);
}
`;

/** Appends each lock's cycle, in order, then records each proposal as the Navigator's (oldest first). */
export function amend(project: BatonProject, locks: readonly LockSeed[], proposals: readonly ProposalSeed[]): void {
  const input = JSON.stringify({ root: project.dir, locks, proposals, navigator: NAVIGATOR });
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SEED], { cwd: REPO_ROOT, input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`Seeding the locked tests and amendments failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
}

/** The `test.amendment` records about one item, oldest first. */
export const amendmentsOf = (project: BatonProject, feature: string, item: string): StoredRecord[] =>
  storedRecords(project).filter((r) => r.type === 'test.amendment' && r.subject.feature === feature && r.subject.item === item);

/** The `test.amendment.decided` records about one item, oldest first. */
export const amendmentDecisionsOf = (project: BatonProject, feature: string, item: string): StoredRecord[] =>
  storedRecords(project).filter((r) => r.type === 'test.amendment.decided' && r.subject.feature === feature && r.subject.item === item);

/** An amendment's entry in the Inbox (at most one open per item). */
export const amendmentEntry = (page: Page, feature: string, item: string) => page.getByTestId(`inbox-amendment-${feature}-${item}`);

/** Opens an item's amendment from the Inbox of the page already on the workbench. */
export async function openAmendment(page: Page, feature: string, item: string): Promise<void> {
  await page.getByTestId('nav-inbox').click();
  await amendmentEntry(page, feature, item).click();
  await expect(amendmentEntry(page, feature, item)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('amendment-panel')).toContainText(`Test amendment of ${item}`);
}
