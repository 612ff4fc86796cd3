/**
 * `baton deploy` and `baton promote` outside a run: the feature's deploy (engine/deploy.ts) or its
 * promotion (engine/promote.ts; with `dryRun` only its plan). Both hold the run lock, so they never
 * race a run of the project, and open the project's branch service as a run does.
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProviderKind } from '../../shared/branches';
import { openBranchService } from '../branches/service';
import { Ledger } from '../ledger';
import { defaultConfigDir } from '../platform/config-dir';
import { defaultDataDir, projectDataDir } from '../platform/data-dir';
import { packageRoot } from '../platform/package-root';
import { readProject } from '../project';
import { deployFeature, type DeployOutcome } from './deploy';
import { promoteFeature, type PromoteOutcome } from './promote';
import { loadSettings } from './run-feature';
import { takeRunLock } from './run-housekeeping';
import type { ShipRequest } from './ship-request';

export interface ShipOptions {
  readonly root: string;
  /** Default: the project's first feature. */
  readonly feature?: string;
  readonly provider?: ProviderKind;
  readonly postgresUrl?: string;
  readonly dataDir?: string;
  readonly signal?: AbortSignal;
  readonly onOutput?: (text: string) => void;
}

const BATON_ROOT = packageRoot(import.meta.url);

export type DeployedFeature = DeployOutcome & { readonly feature: string };

export async function deployProject(options: ShipOptions): Promise<DeployedFeature> {
  return withShipContext(options, 'deploy', async (ctx) => ({ ...(await deployFeature(ctx)), feature: ctx.feature }));
}

export async function promoteProject(options: ShipOptions & { readonly dryRun?: boolean }): Promise<PromoteOutcome> {
  return withShipContext(options, 'promote', (ctx) => promoteFeature({ ...ctx, dryRun: options.dryRun === true }));
}

async function withShipContext<T>(options: ShipOptions, what: string, work: (ctx: ShipRequest) => Promise<T>): Promise<T> {
  const { root } = options;
  const settings = await loadSettings(root);
  const read = await readProject(root);
  if (!read.ok) throw new Error(read.error.message);
  const features = read.value.features;
  const feature = options.feature ? features.find((f) => f.id === options.feature) : features[0];
  if (!feature)
    throw new Error(
      options.feature
        ? `No feature "${options.feature}" in ${root}/.baton/features. Features: ${features.map((f) => f.id).join(', ') || 'none'}.`
        : `No feature in ${root}/.baton/features: there is nothing to ${what}.`,
    );
  const release = await takeRunLock(root, (message) => options.onOutput?.(`${message}\n`));
  try {
    const ledger = Ledger.forArtifactRoot(join(root, '.baton'));
    const real = await realpath(root);
    const dataDir = options.dataDir ?? projectDataDir(real, defaultDataDir(process.env, process.platform, real));
    const branches = await openBranchService({
      root,
      settings,
      ledger,
      dataDir,
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.postgresUrl ? { postgresUrl: options.postgresUrl } : {}),
    });
    try {
      return await work({
        root,
        settings,
        feature: feature.id,
        ledger,
        branches,
        dataDir,
        hide: [defaultConfigDir(), dataDir, BATON_ROOT],
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onOutput ? { onOutput: options.onOutput } : {}),
      });
    } finally {
      await branches.close().catch(() => undefined);
    }
  } finally {
    await release();
  }
}
