/**
 * What the orchestrator's last-mile steps (deploy.ts, promote.ts) are handed, and the sandbox both
 * run project commands in: the app, its verify run, the promotion's verify run.
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { BranchService } from '../branches/service-api';
import type { Ledger } from '../ledger';
import { childEnv } from '../platform/child-env';
import { openSandbox, type Sandbox } from '../process/sandbox';
import type { ProjectSettings } from '../project/settings';

export interface ShipRequest {
  readonly root: string;
  readonly settings: ProjectSettings;
  readonly feature: string;
  readonly ledger: Ledger;
  readonly branches: BranchService;
  /** The project's data folder: the clean checkouts and scratch folders live under it. */
  readonly dataDir: string;
  /** Folders the project's commands must not see (Baton's config and data folders, its installation). */
  readonly hide: readonly string[];
  readonly signal?: AbortSignal;
  /** The commands' output, a line at a time (secrets scrubbed). */
  readonly onOutput?: (text: string) => void;
}

/**
 * A project command's sandbox (only `site` and `home` writable, the project's node_modules read-only)
 * and its allow-listed environment with `extra` on top. Agent-written code runs here like a test
 * run, but with the network: Baton must reach a deployed app.
 */
export async function shipSandbox(
  request: ShipRequest,
  site: string,
  home: string,
  extra: Readonly<Record<string, string>>,
): Promise<{ readonly sandbox: Sandbox; readonly env: NodeJS.ProcessEnv }> {
  const env = childEnv({ home, pass: request.settings.passEnv ?? [], extra: { PGSSLMODE: 'disable', ...extra } });
  const readOnly = [await realpath(join(request.root, 'node_modules')).catch(() => null)].filter((p): p is string => p !== null);
  const sandbox = await openSandbox(request.settings.sandbox, [site, home], { hide: request.hide, readOnly, network: 'shared' });
  return { sandbox, env };
}
