/**
 * The branch service (service-api.ts): pairs each git branch and its worktree with a database
 * branch, protects tiers, honours leases, and records every change in the project's ledger
 * (names, timings, never a connection URL). The project's default branch is the root tier, paired
 * with the provider's root on first use.
 */
import { realpath } from 'node:fs/promises';
import {
  changeRefusal,
  findPairNamed,
  pairNotFound,
  type BranchListView,
  type BranchPairView,
  type GcReport,
  type MigrationReport,
  type MigrationState,
  type PairRefusal,
  type SchemaDiff,
  type Tier,
} from '../../shared/branches';
import { type Actor } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import { defaultDataDir, projectDataDir } from '../platform/data-dir';
import type { Ledger } from '../ledger';
import { DEFAULT_TIERS } from '../../shared/branches';
import { planGc, surveyPairs } from './gc';
import { deleteGitBranch, isMerged, localBranches, removeWorktree } from './git-pair';
import { activeLeases } from './leases';
import { plainDatabaseName } from './names';
import { createPair, ensureRootPair, scrub, type PairContext } from './service-create';
import { BranchError, throwIfCancelled, type BranchProvider, type CallOptions } from './provider';
import { createProvider } from './providers';
import { putEntry, readRegistry, removeEntry } from './registry';
import type { BranchService, BranchServiceOptions } from './service-api';
import { prepareBranch, runMigrations } from './service-prepare';
import { migrationState, planMigrations } from './migrations';
import { adoptRoot, chooseRoot, rootWarnings, type Adopted } from './service-adopt';

export interface OpenOptions extends BranchServiceOptions {
  /** The project's ledger, where every branch change is recorded (the caller wires it: branches open no ledger). */
  readonly ledger: Ledger;
  /** Who the ledger names for branch changes; default the orchestrator. */
  readonly actor?: Actor;
  /** A provider already built (a host sharing one, tests); else one is built from the settings. */
  readonly providerInstance?: BranchProvider;
}

export async function openBranchService(options: OpenOptions): Promise<BranchService> {
  const root = await realpath(options.root);
  const env = options.env ?? process.env;
  const dataDir = options.dataDir ?? projectDataDir(root, defaultDataDir(env, process.platform, root));
  const settings = options.settings;
  const kind = options.providerInstance?.kind ?? options.provider ?? settings.branchProvider ?? 'pglite';
  const provider = options.providerInstance ?? (await createProvider(kind, { settings, dataDir, postgresUrl: options.postgresUrl, env }));
  const tiers: Record<string, Tier> = { ...(settings.branches?.tiers ?? DEFAULT_TIERS) };
  tiers[settings.defaultBranch] ??= 'production';
  const ctx: PairContext = {
    root,
    dataDir,
    settings,
    env,
    provider,
    tiers,
    ...(await chooseRoot(settings, provider.kind, root, dataDir)),
    now: options.now ?? (() => new Date()),
    ledger: options.ledger,
    actor: options.actor ?? { kind: 'orchestrator', id: 'baton' },
  };
  return new PairService(ctx);
}

class PairService implements BranchService {
  readonly kind;
  readonly provider;
  readonly prefix: string;

  constructor(private readonly ctx: PairContext) {
    this.kind = ctx.provider.kind;
    this.provider = ctx.provider;
    this.prefix = ctx.prefix;
  }

  async list(options: CallOptions = {}): Promise<BranchListView> {
    return { provider: this.kind, experimental: this.provider.experimental, pairs: await this.survey(options) };
  }

  adopt(database: string, gitBranch: string, options: CallOptions = {}): Promise<Adopted> {
    return adoptRoot(this.ctx, database, gitBranch, options);
  }

  warnings(): string[] {
    return [...rootWarnings(this.ctx), ...(this.provider.warnings?.() ?? [])];
  }

  create(gitBranch: string, options: CallOptions & { readonly parent?: string; readonly ttlHours?: number | null } = {}) {
    return createPair(this.ctx, gitBranch, options);
  }

  async delete(name: string, options: CallOptions = {}): Promise<void> {
    const pairs = await this.survey(options);
    const pair = findPair(pairs, name);
    refuse(changeRefusal(pair, 'deleted', pairs));
    throwIfCancelled(options.signal, `Deleting "${pair.name}"`);
    const started = performance.now();
    await this.removePair(pair, options);
    await this.record(RECORD_TYPES.branchDeleted, {
      name: pair.name,
      gitBranch: pair.gitBranch,
      parent: pair.parent,
      provider: this.kind,
      ms: elapsed(started),
    });
    options.onProgress?.({ kind: 'branch.done', op: 'delete', name: pair.name, ms: elapsed(started) });
  }

  async reset(name: string, options: CallOptions = {}): Promise<BranchPairView> {
    const pair = findPair(await this.survey(options), name);
    refuse(changeRefusal(pair, 'reset'));
    if (pair.parent === null) throw new BranchError('invalid', `"${pair.name}" has no parent to fork from again.`);
    const entry = (await readRegistry(this.ctx.dataDir)).find((e) => e.name === pair.name);
    const started = performance.now();
    const prepared = prepareBranch(this.ctx, entry?.worktree ?? this.ctx.root, pair.name, 'reset', options);
    await this.provider.reset(pair.name, { ...options, prepare: prepared.prepare });
    if (entry && entry.masked !== prepared.result.masked) await putEntry(this.ctx.dataDir, { ...entry, masked: prepared.result.masked });
    await this.record(RECORD_TYPES.branchReset, {
      name: pair.name,
      parent: pair.parent,
      provider: this.kind,
      masked: prepared.result.masked,
      migrations: prepared.result.migrations?.applied ?? [],
      ms: elapsed(started),
    });
    options.onProgress?.({ kind: 'branch.done', op: 'reset', name: pair.name, ms: elapsed(started) });
    return findPair(await this.survey(options), pair.name);
  }

  async diff(name: string, options: CallOptions = {}): Promise<SchemaDiff> {
    const pair = findPair(await this.survey(options), name);
    const parent = pair.parent ?? pair.database?.parent ?? null;
    if (parent === null) throw new BranchError('invalid', `"${pair.name}" is a root branch: it has no parent to compare with.`);
    if (!pair.database) throw new BranchError('not-found', `"${pair.name}" has no database branch (it is an orphan); \`baton branch gc\` removes it.`);
    return this.provider.schemaDiff(pair.name, parent, options);
  }

  async migrate(name: string, options: CallOptions = {}): Promise<MigrationReport> {
    const pair = findPair(await this.survey(options), name);
    if (pair.tier !== null) throw new BranchError('protected', `"${pair.name}" is a ${pair.tier} tier: Baton does not write to it.`);
    const url = await this.connectionUrl(pair.name, options);
    return runMigrations(this.ctx, pair.worktree ?? this.ctx.root, url, pair.name, options);
  }

  async migrationStatus(name: string, options: CallOptions = {}): Promise<MigrationState> {
    const pair = findPair(await this.survey(options), name);
    if (!pair.database) throw new BranchError('not-found', `"${pair.name}" has no database branch (it is an orphan); \`baton branch gc\` removes it.`);
    const url = await this.connectionUrl(pair.name, options);
    return migrationState(url, await planMigrations(pair.worktree ?? this.ctx.root, this.ctx.settings));
  }

  async connectionUrl(name: string, options: CallOptions = {}): Promise<string> {
    const isRoot = name === this.ctx.rootName || name === this.ctx.settings.defaultBranch;
    if (isRoot) await ensureRootPair(this.ctx, options);
    const pair = isRoot ? null : findPair(await this.survey(options), name);
    if (pair && !pair.database) throw new BranchError('not-found', `"${pair.name}" has no database branch (it is an orphan); \`baton branch gc\` removes it.`);
    return this.provider.connectionUrl(pair?.name ?? this.ctx.rootName, options);
  }

  async gc(options: CallOptions & { readonly dryRun: boolean }): Promise<GcReport> {
    const started = performance.now();
    const plan = planGc(await this.survey(options), this.ctx.now());
    const removed = plan.remove.map(({ name, gitBranch, reason }) => ({ name, gitBranch, reason }));
    const leftovers = (await this.provider.collectLeftovers?.({ ...options, olderThanMs: LEFTOVER_AGE_MS })) ?? [];
    if (options.dryRun || removed.length === 0) {
      if (!options.dryRun && leftovers.length)
        await this.record(RECORD_TYPES.branchCollected, { provider: this.kind, removed: [], kept: plan.kept, leftovers, ms: elapsed(started) });
      return { dryRun: options.dryRun, removed, kept: plan.kept, leftovers };
    }
    const done: typeof removed = [];
    const kept = [...plan.kept];
    const stays = new Set<string>();
    try {
      for (const item of plan.remove) {
        throwIfCancelled(options.signal, 'Garbage collection');
        // A cycle may have taken a lease since the plan was made: look again right before removing,
        // and keep the parents of what stays (children come first in the plan).
        if (stays.has(item.name) || (await activeLeases(this.ctx.dataDir)).some((lease) => lease.name === item.name)) {
          kept.push({ name: item.name, gitBranch: item.gitBranch, reason: 'active' });
          if (item.pair.parent !== null) stays.add(item.pair.parent);
          continue;
        }
        options.onProgress?.({ kind: 'branch.step', op: 'gc', name: item.name, step: `removing ${item.name} (${item.reason})` });
        await this.removePair(item.pair, options);
        done.push({ name: item.name, gitBranch: item.gitBranch, reason: item.reason });
      }
    } finally {
      if (done.length || leftovers.length)
        await this.record(RECORD_TYPES.branchCollected, { provider: this.kind, removed: done, kept, leftovers, ms: elapsed(started) });
    }
    return { dryRun: false, removed: done, kept, leftovers };
  }

  isProtected(nameOrGitBranch: string): boolean {
    return (
      nameOrGitBranch === this.ctx.rootName ||
      Object.keys(this.ctx.tiers).some((git) => git === nameOrGitBranch || plainDatabaseName(git, this.ctx.prefix) === nameOrGitBranch)
    );
  }

  close(): Promise<void> {
    return this.provider.close();
  }

  private async survey(options: CallOptions): Promise<BranchPairView[]> {
    const [entries, databases, gitBranches, leases] = await Promise.all([
      readRegistry(this.ctx.dataDir),
      this.provider.list(options),
      localBranches(this.ctx.root),
      activeLeases(this.ctx.dataDir),
    ]);
    const pairs = surveyPairs({
      entries,
      databases,
      gitBranches: new Set(gitBranches),
      leased: new Set(leases.map((l) => l.name)),
      tiers: this.ctx.tiers,
      defaultBranch: this.ctx.settings.defaultBranch,
      rootName: this.ctx.rootName,
      prefix: this.ctx.prefix,
      provider: this.kind,
    });
    return withMergeState(this.ctx.root, pairs);
  }

  /** Database, worktree, git branch, registry entry: each only if present. */
  private async removePair(pair: BranchPairView, options: CallOptions): Promise<void> {
    if (pair.database) {
      await this.provider.delete(pair.name, options).catch((error: unknown) => {
        if (!(error instanceof BranchError && error.code === 'not-found')) throw error;
      });
    }
    if (pair.worktree) await removeWorktree(this.ctx.root, pair.worktree);
    if (pair.gitBranch && pair.gitBranch !== this.ctx.settings.defaultBranch) await deleteGitBranch(this.ctx.root, pair.gitBranch);
    await removeEntry(this.ctx.dataDir, pair.name);
  }

  private async record(type: string, data: Record<string, unknown>): Promise<void> {
    try {
      await this.ctx.ledger.append({ type, actor: this.ctx.actor, data });
    } catch (cause) {
      throw new BranchError(
        'failed',
        `The branch change was made but the ledger could not record it: ${scrub((cause as Error).message)}. Run \`baton verify\` on the project.`,
        { cause },
      );
    }
  }
}

/** Each pair with whether its git branch is merged into its parent's (null where that means nothing). */
async function withMergeState(root: string, pairs: BranchPairView[]): Promise<BranchPairView[]> {
  const gitOf = new Map(pairs.map((p) => [p.name, p.gitBranch]));
  return Promise.all(
    pairs.map(async (pair) => {
      const into = pair.parent === null ? null : (gitOf.get(pair.parent) ?? null);
      return { ...pair, merged: pair.gitBranch && into && pair.orphan === null ? await isMerged(root, pair.gitBranch, into) : null };
    }),
  );
}

/** A half-made database younger than this may still be in the making in another process. */
const LEFTOVER_AGE_MS = 60 * 60_000;
const elapsed = (started: number): number => Math.round(performance.now() - started);

function findPair(pairs: readonly BranchPairView[], nameOrGit: string): BranchPairView {
  const pair = findPairNamed(pairs, nameOrGit);
  if (!pair) throw refusedWith(pairNotFound(nameOrGit));
  return pair;
}

/** The refusal's words are shared/branches.ts's, so `baton branch` says the same before it asks to confirm. */
const refusedWith = (refusal: PairRefusal): BranchError => new BranchError(refusal.code, refusal.message);

function refuse(refusal: PairRefusal | null): void {
  if (refusal) throw refusedWith(refusal);
}
