/**
 * Database branch names from git branch names. A database name must be a safe identifier in every
 * provider (Postgres caps identifiers at 63 bytes; Neon and Lakebase accept the same alphabet), so
 * the sanitized form is lowercase `[a-z0-9_-]`, at most 63 characters. Different git names can
 * sanitize alike (`feature/login` and `feature-login`), so allocation adds a hash of the git name
 * when the plain form is held by another git branch: never two git branches on one database name.
 */
import { createHash } from 'node:crypto';

export const MAX_NAME_LENGTH = 63;
const HASH_LENGTH = 7;

const hash7 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);

/** `base` cut so that `-<suffix>` fits within `limit`, without a dangling `-`. */
function withSuffix(base: string, suffix: string, limit = MAX_NAME_LENGTH): string {
  const room = limit - suffix.length - 1;
  const head = base.slice(0, room).replace(/-+$/, '');
  return head ? `${head}-${suffix}` : `b-${suffix}`;
}

export { MAX_PREFIX_LENGTH, PREFIX_PATTERN } from '../../shared/branches';

/**
 * The prefix of the databases a project makes on a shared server: its name (letters and digits, up
 * to 12) and a hash of its folder, so two projects, even two named alike or two clones of one
 * repository, never make or take each other's databases. `<name>-<hash6>-`, for example `shop-3fa9c1-`.
 */
export function projectPrefix(projectName: string, root: string): string {
  const slug =
    projectName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '')
      .slice(0, 12) || 'p';
  return `${slug}-${createHash('sha256').update(root).digest('hex').slice(0, 6)}-`;
}

/** Deterministic: the same git name always gives the same database name. */
export function sanitizeBranchName(gitBranch: string): string {
  const plain = gitBranch
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  // A name made only of characters outside the alphabet (`日本`, `///`) still needs a distinct name.
  if (plain === '') return `b-${hash7(gitBranch)}`;
  if (plain.length <= MAX_NAME_LENGTH) return plain;
  return withSuffix(plain, hash7(gitBranch));
}

/** The database name `gitBranch` gets when nothing else holds it: `prefix` + its sanitized name, within the limit. */
export function plainDatabaseName(gitBranch: string, prefix = ''): string {
  const plain = sanitizeBranchName(gitBranch);
  const limit = MAX_NAME_LENGTH - prefix.length;
  return prefix + (plain.length <= limit ? plain : withSuffix(plain, hash7(gitBranch), limit));
}

/**
 * The database name for `gitBranch`, given the names already paired (database name → git branch):
 * the plain name (`prefix` + sanitized) when free or already this branch's, else a hash-suffixed one.
 */
export function allocateDatabaseName(gitBranch: string, taken: ReadonlyMap<string, string>, prefix = ''): string {
  const free = (name: string) => {
    const holder = taken.get(name);
    return holder === undefined || holder === gitBranch;
  };
  const plain = plainDatabaseName(gitBranch, prefix);
  if (free(plain)) return plain;
  const limit = MAX_NAME_LENGTH - prefix.length;
  const bare = plain.slice(prefix.length);
  // Salted retries keep it deterministic for a given `taken` and make a second collision (a git
  // branch literally named like another's suffixed form) resolvable.
  for (let attempt = 0; ; attempt++) {
    const candidate = prefix + withSuffix(bare, hash7(attempt === 0 ? gitBranch : `${gitBranch}\u0000${attempt}`), limit);
    if (free(candidate)) return candidate;
  }
}
