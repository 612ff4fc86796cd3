/**
 * What runs on a new (or reset) database branch before anyone else connects: masking first, so no
 * unmasked row is ever served, then the project's migrations from the pair's worktree.
 */
import type { MigrationReport } from '../../shared/branches';
import { applyMasking } from './masking';
import { applyMigrations, planMigrations } from './migrations';
import { throwIfCancelled, type CallOptions } from './provider';
import type { PairContext } from './service-create';

export interface Prepared {
  readonly prepare: (connectionUrl: string) => Promise<void>;
  /** Filled in as `prepare` runs. */
  readonly result: { masked: boolean; migrations: MigrationReport | null; maskMs: number | null; migrateMs: number | null };
}

export function prepareBranch(ctx: PairContext, cwd: string, name: string, op: 'create' | 'reset', options: CallOptions): Prepared {
  const result: Prepared['result'] = { masked: false, migrations: null, maskMs: null, migrateMs: null };
  const prepare = async (connectionUrl: string) => {
    const masking = ctx.settings.masking;
    if (masking !== null) {
      throwIfCancelled(options.signal, `Masking "${name}"`);
      options.onProgress?.({ kind: 'branch.step', op, name, step: 'masking' });
      const started = performance.now();
      // From the main checkout, never the pair's worktree: agents may write there, and masking is
      // what stands between real rows and them.
      result.masked = await applyMasking(connectionUrl, masking, ctx.root, { env: ctx.env, ...(options.signal ? { signal: options.signal } : {}) });
      result.maskMs = Math.round(performance.now() - started);
    }
    const started = performance.now();
    result.migrations = await runMigrations(ctx, cwd, connectionUrl, name, options);
    result.migrateMs = Math.round(performance.now() - started);
  };
  return { prepare, result };
}

/** Applies the project's migrations (as found in `cwd`, the pair's worktree) to the branch at `connectionUrl`. */
export async function runMigrations(ctx: PairContext, cwd: string, connectionUrl: string, name: string, options: CallOptions): Promise<MigrationReport> {
  const plan = await planMigrations(cwd, ctx.settings);
  throwIfCancelled(options.signal, `Migrating "${name}"`);
  options.onProgress?.({ kind: 'branch.step', op: 'migrate', name, step: 'applying migrations' });
  return applyMigrations(connectionUrl, plan, {
    cwd,
    env: ctx.env,
    branch: name,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
