/**
 * Making a branch pair: reserve the name, git branch, worktree, database branch (masked and
 * migrated), ledger record. Every step made is undone, newest first, if a later one fails or the
 * call is cancelled, so a failed create leaves no git branch, worktree, database or registry entry.
 */
import { redactUrl, type BranchCreated, type Tier } from '../../shared/branches';
import type { Actor } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import type { Ledger } from '../ledger';
import type { ProjectSettings } from '../project/settings';
import { addWorktree, createGitBranch, deleteGitBranch, gitBranchExists, removeWorktree, worktreePath } from './git-pair';
import { acquireLease } from './leases';
import { allocateDatabaseName } from './names';
import { BranchError, throwIfCancelled, type BranchProvider, type CallOptions } from './provider';
import { putEntry, readRegistry, removeEntry, updateRegistry, type RegistryEntry } from './registry';
import { prepareBranch } from './service-prepare';

/** Experiments live this long unless the settings (`branches.ttlHours`) or `--ttl-hours` say otherwise. */
export const DEFAULT_EXPERIMENT_TTL_HOURS = 72;

export interface PairContext {
  readonly root: string;
  readonly dataDir: string;
  readonly settings: ProjectSettings;
  readonly env: NodeJS.ProcessEnv;
  readonly provider: BranchProvider;
  /** Git branch → tier, including the default branch. */
  readonly tiers: Readonly<Record<string, Tier>>;
  /** The default branch's database name: `branches.root`, else the one the registry pairs it with, else `prefix` + its name. */
  rootName: string;
  /** True when `branches.root` names the root: it must exist, Baton never makes it. */
  readonly rootNamed: boolean;
  /** What the databases Baton makes are named with first (names.ts projectPrefix on a postgres server). */
  readonly prefix: string;
  readonly now: () => Date;
  readonly ledger: Ledger;
  readonly actor: Actor;
}

export type CreateRequest = CallOptions & { readonly parent?: string; readonly ttlHours?: number | null };

/** Pairs the default branch with the provider's root (idempotent). */
export async function ensureRootPair(ctx: PairContext, options: CallOptions): Promise<RegistryEntry> {
  const existing = (await readRegistry(ctx.dataDir)).find((e) => e.name === ctx.rootName);
  const db = await ctx.provider.ensureRoot(ctx.rootName, { ...options, mustExist: ctx.rootNamed });
  if (existing) return existing;
  return (await pairRoot(ctx, ctx.rootName, ctx.settings.defaultBranch, db.createdAt)).entry;
}

/**
 * Registers `name` as the root pair of the tier `gitBranch`, replacing the tier's earlier root
 * entry (its database is left as it is). Refused while pairs are forked from that earlier root:
 * they would be left with a parent no tier pairs with.
 */
export function pairRoot(
  ctx: PairContext,
  name: string,
  gitBranch: string,
  createdAt: string | null,
): Promise<{ entry: RegistryEntry; replaced: string | null }> {
  return updateRegistry(ctx.dataDir, (entries) => {
    const holder = entries.find((e) => e.name === name && e.gitBranch !== gitBranch);
    if (holder) throw new BranchError('exists', `"${name}" is already paired with the git branch "${holder.gitBranch}": one database pairs with one branch.`);
    const earlier = entries.find((e) => e.gitBranch === gitBranch && e.name !== name);
    if (earlier) {
      const forked = entries.filter((e) => e.parent === earlier.name).map((e) => e.gitBranch);
      if (forked.length)
        throw new BranchError(
          'has-children',
          `"${gitBranch}" is paired with "${earlier.name}", and ${forked.join(', ')} ${forked.length === 1 ? 'is' : 'are'} forked from it. Finish or delete ${forked.length === 1 ? 'that pair' : 'those pairs'} (\`baton branch delete NAME --yes\`) before pairing "${gitBranch}" with "${name}".`,
        );
    }
    const entry: RegistryEntry = {
      name,
      gitBranch,
      parent: null,
      worktree: null,
      createdAt: createdAt ?? ctx.now().toISOString(),
      ttlHours: null,
      masked: false,
    };
    return { entries: [...entries.filter((e) => e !== earlier && e.name !== name), entry], value: { entry, replaced: earlier?.name ?? null } };
  });
}

async function resolveParent(ctx: PairContext, parent: string | undefined, options: CallOptions): Promise<RegistryEntry> {
  const wanted = parent ?? ctx.settings.defaultBranch;
  if (wanted === ctx.settings.defaultBranch || wanted === ctx.rootName) return ensureRootPair(ctx, options);
  const entries = await readRegistry(ctx.dataDir);
  const found = entries.find((e) => e.name === wanted) ?? entries.find((e) => e.gitBranch === wanted);
  if (!found)
    throw new BranchError('not-found', `The parent "${wanted}" is not a branch pair. Run \`baton branch list\` to see the pairs, or create "${wanted}" first.`);
  return found;
}

function ttlFor(ctx: PairContext, gitBranch: string, parent: RegistryEntry, requested: number | null | undefined): number | null {
  if (ctx.tiers[gitBranch]) return null;
  if (requested !== undefined) return requested;
  const isExperiment = !ctx.tiers[parent.gitBranch];
  if (!isExperiment) return null;
  const configured = ctx.settings.branches?.ttlHours;
  return configured === undefined ? DEFAULT_EXPERIMENT_TTL_HOURS : configured;
}

export async function createPair(ctx: PairContext, gitBranch: string, options: CreateRequest): Promise<BranchCreated> {
  const started = performance.now();
  const { signal, onProgress } = options;
  const step = (name: string, text: string) => onProgress?.({ kind: 'branch.step', op: 'create', name, step: text });
  if (gitBranch.trim() === '') throw new BranchError('invalid', 'A branch pair needs a git branch name.');

  const parent = await resolveParent(ctx, options.parent, options);
  const databases = await ctx.provider.list(options);
  const createdAt = ctx.now().toISOString();
  // Reserve the name first, under the registry lock: two creates can never take one name.
  const entry = await updateRegistry(ctx.dataDir, (entries) => {
    const paired = entries.find((e) => e.gitBranch === gitBranch);
    if (paired)
      throw new BranchError(
        'exists',
        `The git branch "${gitBranch}" is already paired with the database branch "${paired.name}". Use it, or delete it first with \`baton branch delete ${paired.name} --yes\`.`,
      );
    const taken = new Map(databases.map((d) => [d.name, '\u0000database']));
    for (const e of entries) taken.set(e.name, e.gitBranch);
    const name = allocateDatabaseName(gitBranch, taken, ctx.prefix);
    const reserved: RegistryEntry = {
      name,
      gitBranch,
      parent: parent.name,
      worktree: worktreePath(ctx.dataDir, name),
      createdAt,
      ttlHours: ttlFor(ctx, gitBranch, parent, options.ttlHours),
      masked: false,
    };
    return { entries: [...entries, reserved], value: reserved };
  });
  const { name } = entry;
  const worktree = entry.worktree!;
  // The lease keeps a concurrent `gc` from collecting the half-made pair (it looks like an orphan).
  const release = await acquireLease(ctx.dataDir, name, `create ${gitBranch}`).catch(async (error: unknown) => {
    await removeEntry(ctx.dataDir, name);
    throw error;
  });
  const undo: { what: string; run: () => Promise<unknown> }[] = [{ what: 'registry entry', run: () => removeEntry(ctx.dataDir, name) }];
  const timings: Record<string, number> = {};
  const timed = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings[key] = Math.round(performance.now() - t0);
    }
  };
  let failedAt = 'reserving the name';
  try {
    failedAt = 'creating the git branch';
    throwIfCancelled(signal, `Creating "${gitBranch}"`);
    if (!(await gitBranchExists(ctx.root, gitBranch))) {
      step(name, `git branch ${gitBranch} from ${parent.gitBranch}`);
      await timed('gitMs', () => createGitBranch(ctx.root, gitBranch, parent.gitBranch));
      undo.push({ what: `git branch ${gitBranch}`, run: () => deleteGitBranch(ctx.root, gitBranch) });
    }
    failedAt = 'adding the worktree';
    throwIfCancelled(signal, `Creating "${gitBranch}"`);
    step(name, `worktree ${worktree}`);
    await timed('worktreeMs', () => addWorktree(ctx.root, worktree, gitBranch));
    undo.push({ what: `worktree ${worktree}`, run: () => removeWorktree(ctx.root, worktree) });

    failedAt = 'creating the database branch';
    throwIfCancelled(signal, `Creating "${gitBranch}"`);
    step(name, `database branch ${name} from ${parent.name}`);
    const prepared = prepareBranch(ctx, worktree, name, 'create', options);
    // The provider undoes its own half-made branch; the undo below covers a failure after it returned.
    undo.push({ what: `database branch ${name}`, run: () => dropIfPresent(ctx.provider, name) });
    const db = await timed('databaseMs', () => ctx.provider.create(name, parent.name, { ...options, prepare: prepared.prepare }));
    failedAt = 'getting the connection URL';
    const connectionUrl = await ctx.provider.connectionUrl(name, options);

    failedAt = 'recording the pair';
    const masked = prepared.result.masked;
    await putEntry(ctx.dataDir, { ...entry, masked, createdAt: db.createdAt ?? createdAt });
    const createdMs = Math.round(performance.now() - started);
    await ctx.ledger.append({
      type: RECORD_TYPES.branchCreated,
      actor: ctx.actor,
      data: {
        name,
        gitBranch,
        parent: parent.name,
        provider: ctx.provider.kind,
        masked,
        migrations: prepared.result.migrations?.applied ?? [],
        migrationTool: prepared.result.migrations?.tool ?? 'none',
        ttlHours: entry.ttlHours,
        ms: {
          total: createdMs,
          ...timings,
          ...(prepared.result.maskMs !== null ? { maskMs: prepared.result.maskMs } : {}),
          ...(prepared.result.migrateMs !== null ? { migrateMs: prepared.result.migrateMs } : {}),
        },
      },
    });
    onProgress?.({ kind: 'branch.done', op: 'create', name, ms: createdMs });
    return { name, gitBranch, database: db.name, parent: parent.name, connectionUrl, createdMs, worktree, masked };
  } catch (cause) {
    const leftovers = await rollback(undo);
    throw createFailure(gitBranch, failedAt, cause, leftovers);
  } finally {
    await release();
  }
}

async function dropIfPresent(provider: BranchProvider, name: string): Promise<void> {
  const present = (await provider.list()).some((d) => d.name === name);
  if (present) await provider.delete(name);
}

/** Runs every undo step, newest first, even when one fails; returns what could not be removed. */
async function rollback(undo: readonly { what: string; run: () => Promise<unknown> }[]): Promise<string[]> {
  const left: string[] = [];
  for (const item of [...undo].reverse()) {
    try {
      await item.run();
    } catch {
      left.push(item.what);
    }
  }
  return left;
}

function createFailure(gitBranch: string, failedAt: string, cause: unknown, leftovers: readonly string[]): BranchError {
  const code = cause instanceof BranchError ? cause.code : 'failed';
  const why = cause instanceof Error ? cause.message : String(cause);
  const cleanup = leftovers.length
    ? ` Some steps could not be undone; remove these by hand (or run \`baton branch gc\`): ${leftovers.join(', ')}.`
    : ' Everything made before that step was removed again.';
  const prefix =
    code === 'cancelled'
      ? `Creating the pair for "${gitBranch}" was cancelled.`
      : `Creating the pair for "${gitBranch}" failed while ${failedAt}: ${scrub(why)}`;
  return new BranchError(code, `${prefix}${cleanup}`, { cause });
}

/** Free text with any URL's password replaced (a library's error may quote a URL). */
export const scrub = (text: string): string => text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi, (url) => redactUrl(url));
