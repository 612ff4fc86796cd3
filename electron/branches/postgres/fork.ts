/**
 * Making one database from a parent's snapshot: claim a warm pool entry when the snapshot is
 * current, else copy the snapshot (`CREATE DATABASE … TEMPLATE … STRATEGY FILE_COPY`). Shared by
 * create (target = the branch's name) and reset (target = a temporary name swapped in later).
 */
import { BranchError, throwIfCancelled, type CreateOptions } from '../provider';
import type { Admin } from './admin';
import { PG, codeOf } from './errors';
import { ident, isBranchMeta, metaLiteral, poolPrefix, snapshotPrefix, type BranchMeta } from './layout';
import { isCurrent } from './fingerprint';
import { currentSnapshot, type Snapshots } from './snapshot';
import { poolEntries, type WarmPool } from './warm-pool';

export interface ForkDeps {
  readonly admin: Admin;
  readonly snapshots: Snapshots;
  readonly pool: WarmPool;
}

export interface ForkRequest {
  readonly op: 'create' | 'reset';
  /** The branch, for messages and progress. */
  readonly name: string;
  readonly parent: string;
  /** The database to make. */
  readonly target: string;
  /** The comment for `target`, given its depth (the parent's plus one). */
  readonly meta: (depth: number) => BranchMeta;
  readonly options: CreateOptions & { readonly fresh?: boolean };
}

/** How many times a copy is retried when a concurrent refresh retired the snapshot it chose. */
const RESOLVE_ATTEMPTS = 4;

/** `from`: the snapshot `target` is a copy of (cold) or whose pool entry it was (warm). */
export async function forkBranch(deps: ForkDeps, request: ForkRequest): Promise<{ meta: BranchMeta; warm: boolean; from: string }> {
  const { admin, snapshots, pool } = deps;
  const { op, name, parent, target, options } = request;
  const what = `${op === 'create' ? 'creating' : 'resetting'} branch "${name}" from "${parent}"`;
  const cancelled = `${op === 'create' ? 'Creating' : 'Resetting'} branch "${name}"`;
  const step = (text: string) => options.onProgress?.({ kind: 'branch.step', op, name, step: text });
  let force = options.fresh === true;

  for (let attempt = 1; ; attempt += 1) {
    throwIfCancelled(options.signal, cancelled);
    // One round trip: the parent (with its fingerprint), the target, the parent's snapshots and pool.
    const entries = await admin.withClient(what, (client) => admin.catalog(client, [parent, target], [snapshotPrefix(parent), poolPrefix(parent)]));
    const parentEntry = entries.find((entry) => entry.name === parent);
    if (!parentEntry || !isBranchMeta(parentEntry.meta) || parentEntry.meta.role !== 'branch') {
      const why = parentEntry ? 'exists but is not a Baton branch (adopt it as a root first)' : 'does not exist';
      throw new BranchError('not-found', `Cannot fork "${name}": parent "${parent}" ${why} on ${admin.redaction.url}.`);
    }
    if (entries.some((entry) => entry.name === target)) {
      throw new BranchError('exists', `Database "${target}" already exists on ${admin.redaction.url}; pick another name or delete it first.`);
    }
    const meta = request.meta(parentEntry.meta.depth + 1);

    let snapshot = currentSnapshot(entries, parent);
    let candidates: string[] = [];
    if (snapshot && !force && (await isCurrent(admin, snapshot, parentEntry))) {
      candidates = poolEntries(entries, parent, snapshot);
    } else {
      step(snapshot ? `refreshing the snapshot of "${parent}" (its data changed)` : `taking a snapshot of "${parent}"`);
      snapshot = await snapshots.refresh(parent, { branch: name, force, signal: options.signal, onProgress: options.onProgress });
      force = false;
    }
    throwIfCancelled(options.signal, cancelled);

    const from = snapshot.name;
    const outcome = await admin.withClient(what, async (client): Promise<'warm' | 'cold' | 'retired'> => {
      if (candidates.length > 0 && (await pool.claim(client, candidates, target, meta))) {
        step('claimed a pre-forked copy');
        return 'warm';
      }
      step('copying the snapshot');
      try {
        // Closed until PUBLIC's CONNECT is revoked: only the branch's role (roles.ts) and the admin may ever connect.
        await admin.run(client, `CREATE DATABASE ${ident(target)} TEMPLATE ${ident(from)} STRATEGY FILE_COPY ALLOW_CONNECTIONS false`, options.signal);
      } catch (error) {
        const code = codeOf(error);
        if (code === PG.duplicateDatabase)
          throw new BranchError('exists', `Database "${target}" already exists on ${admin.redaction.url}; pick another name or delete it first.`);
        if (code === PG.undefinedDatabase) return 'retired';
        if (code === PG.queryCanceled && options.signal?.aborted) throw new BranchError('cancelled', `${cancelled} was cancelled; nothing was left half-made.`);
        throw error;
      }
      try {
        await client.query(
          `REVOKE ALL ON DATABASE ${ident(target)} FROM PUBLIC; ALTER DATABASE ${ident(target)} ALLOW_CONNECTIONS true; COMMENT ON DATABASE ${ident(target)} IS ${metaLiteral(meta)}`,
        );
      } catch (error) {
        await admin.drop(client, target, true);
        throw error;
      }
      return 'cold';
    });
    if (outcome === 'retired') {
      if (attempt >= RESOLVE_ATTEMPTS)
        throw new BranchError('busy', `Cannot fork "${name}": the snapshot of "${parent}" kept being replaced by other processes. Try again.`);
      continue;
    }
    pool.refill(parent);
    return { meta, warm: outcome === 'warm', from };
  }
}
