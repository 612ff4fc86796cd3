/**
 * Tier roots: which database a tier's git branch pairs with. The default branch pairs with
 * `branches.root` when project.json names one (it must exist: Baton never makes it), else with the
 * root the registry already pairs it with (a project keeps its root across upgrades), else with a
 * database Baton makes, named with the project's prefix so projects sharing a server never share
 * a root. `baton branch adopt` pairs a tier with an existing database instead.
 */
import { RECORD_TYPES } from '../../shared/records';
import type { ProjectSettings } from '../project/settings';
import { gitBranchExists } from './git-pair';
import { plainDatabaseName, projectPrefix } from './names';
import { BranchError, throwIfCancelled, type CallOptions } from './provider';
import { readRegistry } from './registry';
import { pairRoot, type PairContext } from './service-create';

export interface RootChoice {
  readonly rootName: string;
  readonly rootNamed: boolean;
  readonly prefix: string;
}

/** The prefix and the default branch's root, as openBranchService sets them up. */
export async function chooseRoot(settings: ProjectSettings, provider: string, root: string, dataDir: string): Promise<RootChoice> {
  const prefix = settings.branches?.prefix ?? (provider === 'postgres' ? projectPrefix(settings.name, root) : '');
  const named = settings.branches?.root;
  if (named !== undefined) return { rootName: named, rootNamed: true, prefix };
  // An unreadable registry fails the first operation, in its own words; here it only means "none pinned".
  const entries = await readRegistry(dataDir).catch(() => []);
  const pinned = entries.find((e) => e.gitBranch === settings.defaultBranch && e.parent === null);
  return { rootName: pinned?.name ?? plainDatabaseName(settings.defaultBranch, prefix), rootNamed: false, prefix };
}

/** Words for `baton branch list` and the status bar when the root may be shared with other projects. */
export function rootWarnings(ctx: PairContext): string[] {
  if (ctx.provider.kind !== 'postgres' || ctx.rootNamed || ctx.prefix === '' || ctx.rootName.startsWith(ctx.prefix)) return [];
  return [
    `The default branch pairs with the database "${ctx.rootName}", a name without this project's prefix "${ctx.prefix}": another project on this server may use it as its root too. Name it in .baton/project.json (branches.root) if it is meant to be shared, or move to the project's own root (docs/branches.md, "Tier roots").`,
  ];
}

export interface Adopted {
  readonly name: string;
  readonly gitBranch: string;
  /** The database the tier paired with before, left as it was; null if none. */
  readonly replaced: string | null;
}

/** Pairs the tier `gitBranch` with the existing database `database` and records it (`branch.adopted`). */
export async function adoptRoot(ctx: PairContext, database: string, gitBranch: string, options: CallOptions): Promise<Adopted> {
  const isDefault = gitBranch === ctx.settings.defaultBranch;
  if (!isDefault && !ctx.tiers[gitBranch]) {
    const tiers = Object.keys(ctx.tiers).join(', ');
    throw new BranchError(
      'invalid',
      `"${gitBranch}" is not a tier (tiers: ${tiers}). Only a tier's branch can pair with an existing database; feature and experiment pairs are forked from their parent. Add it under branches.tiers in .baton/project.json first if it is one.`,
    );
  }
  if (isDefault && ctx.rootNamed && database !== ctx.rootName)
    throw new BranchError(
      'invalid',
      `.baton/project.json names "${ctx.rootName}" as the root (branches.root). Change branches.root to "${database}" instead, or remove it and adopt again.`,
    );
  if (!(await gitBranchExists(ctx.root, gitBranch)))
    throw new BranchError('not-found', `There is no git branch "${gitBranch}" in ${ctx.root}. Create it first (git branch ${gitBranch}), then adopt.`);
  const before = (await readRegistry(ctx.dataDir)).find((e) => e.name === database);
  if (before && before.gitBranch === gitBranch) return { name: database, gitBranch, replaced: null };
  throwIfCancelled(options.signal, `Adopting "${database}"`);
  const started = performance.now();
  const db = await ctx.provider.ensureRoot(database, { ...options, mustExist: true });
  const { replaced } = await pairRoot(ctx, database, gitBranch, db.createdAt);
  if (isDefault) ctx.rootName = database;
  const ms = Math.round(performance.now() - started);
  await ctx.ledger.append({
    type: RECORD_TYPES.branchAdopted,
    actor: ctx.actor,
    data: { name: database, gitBranch, provider: ctx.provider.kind, replaced, ms },
  });
  options.onProgress?.({ kind: 'branch.done', op: 'adopt', name: database, ms });
  return { name: database, gitBranch, replaced };
}
