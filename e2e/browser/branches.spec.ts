/**
 * The Branch tree on a real Baton project in a real git repository, with the embedded (PGlite)
 * provider: the default branch's tier, creating `feature/login` with progress, its git and
 * database halves, a schema change made through its connection URL showing in the diff, reset
 * and delete with confirmation, and the tier protected from both; whether each pair is merged
 * into its parent, and where each database stands against its code's migrations when asked.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import pg from 'pg';
import type { BranchProject } from './support/branch-project';
import { ARTIFACTS_DIR } from './support/paths';
import { branchProject, expect, serving } from './support/served';

const test = serving(branchProject());

// PGlite's first initialisation takes seconds on a small machine, and a create copies a data
// folder and starts a server process: generous bounds, so a busy CI machine is not a failure.
test.describe.configure({ timeout: 360_000 });
const SLOW = { timeout: 120_000 };

const row = (page: Page, name: string) => page.getByTestId(`branch-row-${name}`);

async function openBranches(page: Page) {
  await page.getByTestId('nav-branches').click();
  await expect(page.getByTestId('nav-branches')).toHaveAttribute('aria-current', 'page');
  await expect(row(page, 'main')).toBeVisible(SLOW);
}

/** Runs SQL on a branch through the URL the CLI prints with --show-secret, as a user's test would. */
async function onBranch(project: BranchProject, name: string, sql: string): Promise<void> {
  const printed = JSON.parse(project.baton('branch', 'url', name, '--show-secret', '--json', '--project', project.dir)) as { connectionUrl: string };
  const client = new pg.Client({ connectionString: printed.connectionUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

test('the default branch is a protected tier, and the tree invites the first pair', async ({ servedPage: page }) => {
  await openBranches(page);
  const main = row(page, 'main');
  await expect(main).toHaveAttribute('role', 'treeitem');
  await expect(main).toHaveAttribute('aria-level', '1');
  await expect(main.getByTestId('branch-git')).toContainText('main');
  // A fresh project's root database is made when the first pair forks from it.
  await expect(main.getByTestId('branch-db')).toContainText('main');
  await expect(main.getByTestId('branch-db-pending')).toHaveText('made with the first pair');
  await expect(main.getByTestId('branch-marker-orphan')).toHaveCount(0);
  await expect(main.getByTestId('branch-provider')).toHaveText('embedded');
  await expect(main.getByTestId('branch-marker-tier')).toHaveText('production');
  await expect(page.getByTestId('branches-empty')).toContainText('No branches yet — create one from the default branch');

  // The top bar names the provider once it runs.
  await expect(page.getByTestId('provider-state')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('provider-label')).toHaveText('embedded');
  await expect(page.getByTestId('provider-experimental')).toHaveCount(0);

  await main.click();
  await expect(main).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('branch-diff-none')).toContainText('main is a root: it has no parent to compare with');
  await expect(page.getByTestId('branch-delete')).toBeDisabled();
  await expect(page.getByTestId('branch-reset')).toBeDisabled();
  await expect(page.getByTestId('branch-delete')).toHaveAttribute('title', /protected production tier/);
  await expect(page.getByTestId('branch-action-hint')).toContainText('main is a protected production tier: tiers are never reset or deleted.');
});

test('create feature/login, see its halves, change its schema, reset it, delete it', async ({ servedPage: page, project }) => {
  await openBranches(page);

  await test.step('create with progress; the URL arrives without a password', async () => {
    await page.getByTestId('branch-create').click();
    const dialog = page.getByTestId('branch-create-dialog');
    await expect(dialog).toHaveAttribute('role', 'dialog');
    await expect(page.getByTestId('branch-create-name')).toBeFocused();
    await expect(page.getByTestId('branch-create-parent')).toHaveValue('main');
    await page.getByTestId('branch-create-name').fill('feature/login');
    await page.getByTestId('branch-create-submit').click();

    await expect(page.getByTestId('branch-created')).toBeVisible(SLOW);
    const steps = page.getByTestId('branch-progress-step');
    expect(await steps.count()).toBeGreaterThan(0);
    await expect(page.getByTestId('branch-progress')).toHaveAttribute('data-running', 'false');
    const url = new URL((await page.getByTestId('branch-created-url').textContent()) ?? '');
    expect(url.protocol).toMatch(/^postgres(ql)?:$/);
    expect(url.hostname).toBe('127.0.0.1');
    expect(['', '***']).toContain(url.password);
    await expect(page.getByTestId('branch-created-worktree')).toContainText(project.dataDir);
    await page.getByTestId('branch-create-done').click();
    await expect(dialog).toHaveCount(0);
  });

  const login = row(page, 'feature-login');
  await test.step('the new row pairs the git half with the database half', async () => {
    await expect(login).toBeVisible();
    await expect(login).toHaveAttribute('aria-level', '2');
    await expect(login).toHaveAttribute('data-kind', 'feature');
    await expect(login.getByTestId('branch-git')).toContainText('feature/login');
    await expect(login.getByTestId('branch-worktree')).toContainText(project.dataDir);
    await expect(login.getByTestId('branch-db')).toContainText('feature-login');
    await expect(login.getByTestId('branch-provider')).toHaveText('embedded');
    await expect(login.getByTestId('branch-depth')).toHaveText('depth 1');
    await expect(login.getByTestId('branch-age')).toHaveText(/now|second|minute/);
    await expect(login.getByTestId('branch-size')).toHaveText(/\d+(\.\d)? (B|KB|MB)/);
    await expect(page.getByTestId('branches-empty')).toHaveCount(0);
    await expect(row(page, 'main').getByTestId('branch-db-pending')).toHaveCount(0);
    expect(project.git('branch', '--list', 'feature/login')).toContain('feature/login');
    // The created pair opened: its diff against main shows nothing yet.
    await expect(login).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('branch-diff-empty')).toHaveText('No schema changes against main', SLOW);
  });

  await test.step('the keyboard walks the tree', async () => {
    await row(page, 'main').focus();
    await page.keyboard.press('ArrowDown');
    await expect(login).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(row(page, 'main')).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(row(page, 'main')).toHaveAttribute('aria-expanded', 'false');
    await expect(login).toHaveCount(0);
    await page.keyboard.press('ArrowRight');
    await expect(login).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(login).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(login).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('a table made through the branch URL shows in the diff, grouped by table', async () => {
    await onBranch(project, 'feature-login', 'CREATE TABLE orders (id integer PRIMARY KEY, paid_at timestamptz)');
    await page.getByTestId('branch-diff-refresh').click();
    const group = page.getByTestId('branch-diff-table-public.orders');
    await expect(group).toBeVisible(SLOW);
    await expect(group.getByTestId('branch-diff-change').first()).toHaveAttribute('data-kind', 'table-added');
    await expect(group).toContainText('table added');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'branches.png') });
  });

  await test.step('reset asks first, then the diff is empty again', async () => {
    await page.getByTestId('branch-reset').click();
    const dialog = page.getByTestId('branch-reset-dialog');
    await expect(page.getByTestId('branch-reset-summary')).toContainText('forked again from main');
    await expect(dialog).toContainText('Kept: git branch feature/login');
    await page.getByTestId('branch-confirm-submit').click();
    await expect(dialog).toHaveCount(0, SLOW);
    await expect(page.getByTestId('branch-diff-empty')).toHaveText('No schema changes against main', SLOW);
  });

  await test.step('delete says exactly what goes, then the row and the git branch are gone', async () => {
    await page.getByTestId('branch-delete').click();
    const list = page.getByTestId('branch-removal-list');
    await expect(list).toContainText('git branch feature/login');
    await expect(list).toContainText(`worktree folder ${project.dataDir}`);
    await expect(list).toContainText('database branch feature-login (embedded)');
    await page.getByTestId('branch-confirm-submit').click();
    await expect(page.getByTestId('branch-delete-dialog')).toHaveCount(0, SLOW);
    await expect(login).toHaveCount(0);
    await expect(page.getByTestId('branches-empty')).toBeVisible();
    expect(project.git('branch', '--list', 'feature/login').trim()).toBe('');
  });
});

test('an invalid name is refused with what to do, and nothing is created', async ({ servedPage: page }) => {
  await openBranches(page);
  await page.getByTestId('branch-create').click();
  await page.getByTestId('branch-create-name').fill('feature/a..b');
  await page.getByTestId('branch-create-submit').click();
  const error = page.getByTestId('branch-create-dialog').getByTestId('error');
  await expect(error).toBeVisible(SLOW);
  await expect(error).toContainText('was not created');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('branch-create-dialog')).toHaveCount(0);
  await expect(page.locator('[data-testid^="branch-row-"]')).toHaveCount(1);
});

test('each row says whether it is merged into its parent, and Check migrations says where its database stands', async ({ servedPage: page, project }) => {
  await openBranches(page);
  const create = (gitBranch: string) => JSON.parse(project.baton('branch', 'create', gitBranch, '--json', '--project', project.dir)) as { worktree: string };
  const done = create('feature/merged');
  const ahead = create('feature/ahead');
  create('feature/fresh');
  const git = (dir: string, ...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { stdio: 'pipe' });
  // A commit only the pair's branch has: not merged into main. The same, merged into main with a merge commit: merged.
  for (const [pair, file] of [
    [ahead, 'NOTES.md'],
    [done, 'DONE.md'],
  ] as const) {
    writeFileSync(join(pair.worktree, file), 'work\n');
    git(pair.worktree, 'add', file);
    git(pair.worktree, 'commit', '-m', file);
  }
  git(project.dir, 'merge', '--no-ff', '-m', 'merge feature/merged', 'feature/merged');
  await page.getByTestId('branch-refresh').click();

  const merged = row(page, 'feature-merged');
  const notMerged = row(page, 'feature-ahead');
  await test.step('a pair merged with a merge commit is merged into main; one with a commit of its own is not; one with nothing of its own says nothing', async () => {
    await expect(merged.getByTestId('branch-merged')).toHaveText('merged into main', SLOW);
    await expect(notMerged.getByTestId('branch-merged')).toHaveText('not merged into main');
    // "merged" would read as shipped: a pair cut from main with no commit yet has no merge badge.
    await expect(row(page, 'feature-fresh')).toBeVisible();
    await expect(row(page, 'feature-fresh').getByTestId('branch-merged')).toHaveCount(0);
    await expect(row(page, 'main').getByTestId('branch-merged')).toHaveCount(0);
    await expect(merged).toHaveAttribute('aria-label', /, merged into main/);
    await expect(notMerged).toHaveAttribute('aria-label', /not merged into main/);
  });

  await test.step('Check migrations, from the keyboard: the new pairs are migrated, the tier is not', async () => {
    await expect(page.getByTestId('branch-migrations')).toHaveCount(0);
    const check = page.getByTestId('branch-check-migrations');
    await expect(check).toHaveText('Check migrations');
    await check.focus();
    await page.keyboard.press('Enter');
    await expect(merged.getByTestId('branch-migrations')).toHaveText('migrated', SLOW);
    await expect(notMerged.getByTestId('branch-migrations')).toHaveText('migrated');
    await expect(merged.getByTestId('branch-migrations')).toHaveAttribute('title', 'feature/merged: migrated to the code');
    // Baton never migrates a tier outside a promotion: main's code is ahead of its database.
    await expect(row(page, 'main').getByTestId('branch-migrations')).toHaveText('code ahead: 1');
    await expect(row(page, 'main').getByTestId('branch-migrations')).toHaveAttribute(
      'title',
      'main: code ahead of the database: 1_order_numbers.sql not applied',
    );
    await expect(row(page, 'main')).toHaveAttribute('aria-label', /main: code ahead of the database: 1_order_numbers\.sql not applied/);
    await expect(check).toHaveText('Check migrations');
    await expect(check).toBeEnabled();
    await expect(page.getByTestId('branch-migrations-error')).toHaveCount(0);
  });

  await test.step('deleting a pair clears the answer, which may be stale', async () => {
    await merged.click();
    // Let its schema diff finish first: a delete that stops the database mid-diff is another test.
    await expect(page.getByTestId('branch-diff-empty')).toHaveText('No schema changes against main', SLOW);
    await page.getByTestId('branch-delete').click();
    await page.getByTestId('branch-confirm-submit').click();
    await expect(page.getByTestId('branch-delete-dialog')).toHaveCount(0, SLOW);
    await expect(merged).toHaveCount(0);
    await expect(page.getByTestId('branch-migrations')).toHaveCount(0);
    await expect(notMerged.getByTestId('branch-merged')).toHaveText('not merged into main');
  });
});
