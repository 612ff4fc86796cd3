/**
 * What promote asks of the tier's database, apart from the promotion itself (promote.ts): which of
 * the merged tree's migrations it has not applied, and `promote.verify` run against it.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { migrationState, planMigrations } from '../branches/migrations';
import { runCommand } from '../process/run-command';
import { checkoutTree } from '../runner/run-tree';
import type { PromotePlan, PromoteRequest } from './promote';
import { shipSandbox } from './ship-request';

const DEFAULT_VERIFY_S = 600;

/** The merged tree's migrations and which of them the tier has not applied (null: a command tool decides). */
export async function migrationsPlan(request: PromoteRequest, tree: string, tierDatabase: string): Promise<PromotePlan['migrations']> {
  const site = join(request.dataDir, 'promote', 'plan');
  const scratch = join(request.dataDir, 'promote', 'scratch');
  await mkdir(scratch, { recursive: true });
  await checkoutTree(request.root, tree, site, scratch, join(request.root, 'node_modules'));
  const plan = await planMigrations(site, request.settings);
  if (plan.tool === 'none') return { tool: 'none', pending: [], command: null };
  if (plan.tool !== 'sql') return { tool: plan.tool, pending: null, command: plan.command };
  const url = await request.branches.connectionUrl(tierDatabase, request.signal ? { signal: request.signal } : {});
  return { tool: 'sql', pending: (await migrationState(url, plan)).codeAhead, command: null };
}

/** `promote.verify` against the tier database, sandboxed like a test run; returns its output, throws when it fails. */
export async function runVerify(request: PromoteRequest, command: string, site: string, scratch: string, url: string): Promise<string> {
  const home = join(scratch, 'home');
  await mkdir(home, { recursive: true });
  const { sandbox, env } = await shipSandbox(request, site, home, { DATABASE_URL: url });
  const result = await runCommand(command, {
    cwd: site,
    ...sandbox.spawnOptions(site, env),
    timeoutMs: (request.settings.promote?.verifyTimeoutSeconds ?? DEFAULT_VERIFY_S) * 1000,
    reap: true,
    ...(request.onOutput ? { onOutput: request.onOutput } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.code !== 0) throw new Error(`\`${command}\` exited with code ${result.code ?? result.signal} against the tier database.`);
  return output;
}
