/**
 * Write scopes: which paths a role may change. The Navigator writes tests, the Driver source and
 * migrations; nobody writes `.baton/`, `.git`, the runner configuration or the other protected
 * paths, whatever the role's globs say. Pure.
 */
import { matchesAny } from '../../shared/glob';
import { touchedPaths, type TreeChange } from '../platform/tree-diff';

/**
 * Always out of every role's scope: Baton's and git's own folders, and what changes what git
 * commits or checks out (`.gitignore` could hide the code the tests ran from the commit).
 */
export const ALWAYS_PROTECTED = ['.baton', '.baton/**', '.git', '.git/**', '**/.gitignore', '**/.gitattributes', '.gitmodules'];

export interface ScopeRules {
  /** The role's globs from `writeScopes` in project.json. */
  readonly allowed: readonly string[];
  /** `protectedPaths` and `runnerConfigFiles` from project.json. */
  readonly protected: readonly string[];
  /**
   * Set for the Driver: whether a path is a test (the engine asks the runner's rules, with the
   * project's test globs). A file any runner would take for a test, wherever it is and whatever the
   * Driver's scope says, is not the Driver's to write.
   */
  readonly noTests?: (path: string) => boolean;
}

export interface ScopeJudgement {
  readonly inScope: TreeChange[];
  readonly outOfScope: Array<{ readonly change: TreeChange; readonly why: string }>;
}

export function judgeScope(changes: readonly TreeChange[], rules: ScopeRules): ScopeJudgement {
  const protectedGlobs = [...ALWAYS_PROTECTED, ...rules.protected];
  const inScope: TreeChange[] = [];
  const outOfScope: ScopeJudgement['outOfScope'] = [];
  for (const change of changes) {
    const why = touchedPaths(change)
      .map((path) =>
        matchesAny(path, protectedGlobs)
          ? `${path} is protected`
          : rules.noTests && change.kind !== 'deleted' && rules.noTests(path)
            ? `${path} is a test file: only the Navigator writes tests`
            : !matchesAny(path, rules.allowed)
              ? `${path} is outside this role's write scope (${rules.allowed.join(', ') || 'nothing'})`
              : null,
      )
      .find((reason) => reason !== null);
    // A symlink may point anywhere: allowed only when its target stays inside the allowed paths too.
    const link = change.kind !== 'deleted' && change.after.symlink !== null ? change.after.symlink : null;
    const linkWhy =
      link !== null && (link.startsWith('/') || link.split('/').includes('..')) ? `${change.path} is a symlink leaving its folder (${link})` : null;
    if (why ?? linkWhy) outOfScope.push({ change, why: (why ?? linkWhy)! });
    else inScope.push(change);
  }
  return { inScope, outOfScope };
}
