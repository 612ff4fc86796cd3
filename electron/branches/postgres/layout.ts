/**
 * Names and metadata of the databases the postgres provider owns on a server.
 *
 * A branch is a database named exactly the branch name. Baton marks its databases with
 * `COMMENT ON DATABASE` holding JSON (the server is the only place every Baton process sees, and a
 * comment changes in the same transaction as the rename that claims a pool entry). Only a
 * database's owner or a superuser may write its comment, and Baton's databases are the admin's:
 * branch roles are granted theirs, never given it (role-sql.ts grantDatabase), so they cannot
 * rewrite what Baton reads here (issue 31). Baton keeps its helpers under the reserved `baton_`
 * prefix so they never collide with a branch:
 *   baton_snap_<h>_<gen>        the frozen snapshot of parent <h> that branches are forked from
 *   baton_pool_<h>_<gen>_<id>   a pre-forked copy of that snapshot, waiting to be renamed
 *   baton_tmp_<id>              a reset's replacement while it is being prepared
 * <h> is a hash of the parent's name (names are up to 63 bytes, the helper's name must fit too);
 * <gen> names one snapshot generation, so a pool entry says which snapshot it was copied from.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { BranchError } from '../provider';

export const RESERVED_PREFIX = 'baton_';
const MAX_IDENTIFIER_BYTES = 63;

export type BranchRole = 'branch' | 'pending';

/** What Baton writes into a branch database's comment. */
export interface BranchMeta {
  readonly baton: 1;
  readonly role: BranchRole;
  readonly parent: string | null;
  readonly createdAt: string;
  readonly depth: number;
  /** Set on an existing database that ensureRoot adopted; its earlier comment is kept here. */
  readonly adopted?: boolean;
  readonly previousComment?: string | null;
  readonly resetAt?: string;
  /** On a reset's replacement (`baton_tmp_…`): the branch it will become. */
  readonly for?: string;
}

export interface SnapshotMeta {
  readonly baton: 1;
  readonly role: 'snapshot';
  readonly of: string;
  /** The parent's coarse and content fingerprints when the snapshot was taken (fingerprint.ts). */
  readonly fingerprint: string | null;
  readonly content: string | null;
  readonly createdAt: string;
}

export interface PoolMeta {
  readonly baton: 1;
  readonly role: 'pool';
  readonly of: string;
  readonly snapshot: string;
  readonly createdAt: string;
}

export type BatonMeta = BranchMeta | SnapshotMeta | PoolMeta;

export function parseMeta(comment: string | null): BatonMeta | null {
  if (!comment || !comment.startsWith('{')) return null;
  try {
    const value = JSON.parse(comment) as { baton?: unknown; role?: unknown };
    if (value.baton !== 1 || typeof value.role !== 'string') return null;
    return value as BatonMeta;
  } catch {
    return null;
  }
}

export const isBranchMeta = (meta: BatonMeta | null): meta is BranchMeta => meta?.role === 'branch' || meta?.role === 'pending';

/** A quoted identifier; names were validated, this guards against quotes anyway. */
export const ident = (name: string): string => pg.escapeIdentifier(name);
export const literal = (text: string): string => pg.escapeLiteral(text);
export const metaLiteral = (meta: BatonMeta): string => literal(JSON.stringify(meta));

/** Refuses names Postgres would truncate or that Baton reserves for its helpers. */
export function checkBranchName(name: string, adminDatabase: string): void {
  if (!name || name.includes('\0')) throw new BranchError('invalid', `"${name}" is not a usable database name: it is empty or holds a NUL character.`);
  if (Buffer.byteLength(name, 'utf8') > MAX_IDENTIFIER_BYTES) {
    throw new BranchError(
      'invalid',
      `Database name "${name}" is longer than Postgres's ${MAX_IDENTIFIER_BYTES}-byte limit; use the sanitized branch name (sanitizeBranchName).`,
    );
  }
  if (name.startsWith(RESERVED_PREFIX)) {
    throw new BranchError(
      'invalid',
      `Database name "${name}" starts with "${RESERVED_PREFIX}", which Baton reserves for its snapshots and warm pool; rename the git branch.`,
    );
  }
  if (name === adminDatabase) {
    // Baton's own sessions live there, so it could never be snapshotted (a template needs no sessions).
    throw new BranchError(
      'invalid',
      `"${name}" is the database in the admin URL; Baton cannot branch it. Point --url at another database (usually "postgres") or pick another branch name.`,
    );
  }
}

const hashOf = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 10);
const randomId = (bytes: number): string => randomBytes(bytes).toString('hex');

export const snapshotPrefix = (parent: string): string => `${RESERVED_PREFIX}snap_${hashOf(parent)}_`;
export const poolPrefix = (parent: string): string => `${RESERVED_PREFIX}pool_${hashOf(parent)}_`;
export const TEMP_PREFIX = `${RESERVED_PREFIX}tmp_`;

export const newSnapshotName = (parent: string): string => `${snapshotPrefix(parent)}${randomId(4)}`;
/** The generation a snapshot name carries (its last part). */
export const generationOf = (snapshot: string): string => snapshot.slice(snapshot.lastIndexOf('_') + 1);
export const poolGenerationPrefix = (parent: string, snapshot: string): string => `${poolPrefix(parent)}${generationOf(snapshot)}_`;
export const newPoolName = (parent: string, snapshot: string): string => `${poolGenerationPrefix(parent, snapshot)}${randomId(3)}`;
export const newTempName = (): string => `${TEMP_PREFIX}${randomId(6)}`;
/** A warm pool entry's name (`baton_pool_<h>_<gen>_<id>`), which is also its placeholder role's (roles.ts). */
export const isPoolEntryName = (name: string): boolean => /^baton_pool_[0-9a-f]{10}_[0-9a-f]{8}_[0-9a-f]{6}$/.test(name);
