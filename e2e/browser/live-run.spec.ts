/**
 * Live across processes, a run (issue 34): the workbench open on the demo while `baton run` is
 * started from a terminal. Within 2 s of the run taking its lock the top bar says a run is going on
 * in another process (and Run is not offered); the run's records move T1's card with no Reload; when
 * that run is stopped, the notice goes and Run is offered again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support/paths';
import { demoProject, expect, serving } from './support/served';

const test = serving(demoProject());
test.describe.configure({ timeout: 600_000 });
// Reaching T1's RED (a database branch, an agent turn, the runs) takes a while on two busy cores.
const SLOW = { timeout: 300_000 };
const LIVE = { timeout: 2_000 };

let cli: ChildProcess | null = null;
test.afterAll(() => {
  cli?.kill('SIGKILL');
});

const until = async (check: () => boolean, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

test('a run started from the CLI shows within 2 s, its progress lands on the board, and its end clears the notice', async ({ servedPage: page, project }) => {
  await expect(page.getByTestId('column-pending').getByTestId('card-T1')).toBeVisible();
  await expect(page.getByTestId('run-elsewhere')).toHaveCount(0);
  await expect(page.getByTestId('run-start')).toBeEnabled();

  const output: string[] = [];
  cli = spawn(process.execPath, ['bin/baton.mjs', 'run', project.root], {
    cwd: REPO_ROOT,
    env: { ...process.env, BATON_DATA_DIR: project.dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cli.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  cli.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  await until(() => existsSync(join(project.root, '.baton', 'state', 'run.lock')), 60_000);

  // Within 2 s of the lock: said, with who, and Run is not offered.
  const notice = page.getByTestId('run-elsewhere');
  await expect(notice).toBeVisible(LIVE);
  await expect(notice).toHaveAttribute('title', new RegExp(`pid ${cli.pid}\\b.*Stop it there to run here`));
  await expect(page.getByTestId('run-start')).toBeDisabled();

  // The run's records move T1 out of pending, with no Reload.
  await expect(page.getByTestId('column-pending').getByTestId('card-T1')).toHaveCount(0, SLOW);

  // Stopped where it runs (Ctrl+C): the lock goes, and so does the notice.
  cli.kill('SIGINT');
  await until(() => cli!.exitCode !== null || cli!.signalCode !== null, 120_000).catch(() => {
    throw new Error(`baton run did not stop on SIGINT:\n${output.join('')}`);
  });
  await expect(notice).toHaveCount(0, { timeout: 5_000 });
  await expect(page.getByTestId('run-start')).toBeEnabled();
});
