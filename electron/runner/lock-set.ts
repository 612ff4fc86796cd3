/**
 * LOCK: after RED, the orchestrator fixes the SHA-256 of every file matching the test globs, of
 * the runner configuration files and of the test command. After every later turn it re-hashes
 * the set: any difference (a changed, deleted, renamed or added test, `.skip`, an edited
 * package.json or runner config) is a violation, reverted from the locked contents.
 */
import { matchesAny } from '../../shared/glob';
import { diffTrees, type TreeChange } from '../platform/tree-diff';
import { revertChanges } from '../platform/revert';
import { sha256, snapshotTree, type FileState, type TreeSnapshot } from '../platform/tree-snapshot';

export interface LockRules {
  readonly testGlobs: readonly string[];
  readonly runnerConfigFiles: readonly string[];
  readonly testCommand: string;
}

export interface LockedFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly mode: number;
}

export interface LockSet {
  readonly files: readonly LockedFile[];
  readonly testCommand: string;
  readonly testCommandSha256: string;
}

export interface Lock {
  readonly set: LockSet;
  /** The locked files with content, to revert from (and to store as ledger blobs). */
  readonly snapshot: TreeSnapshot;
}

export function isLocked(path: string, rules: LockRules): boolean {
  return matchesAny(path, rules.testGlobs) || rules.runnerConfigFiles.includes(path);
}

export async function takeLock(worktree: string, rules: LockRules): Promise<Lock> {
  const snapshot = lockedPart(await snapshotTree(worktree, { content: true }), rules);
  const files = [...snapshot].map(([path, s]) => ({ path, sha256: s.sha256, bytes: s.bytes, mode: s.mode }));
  return { set: { files, testCommand: rules.testCommand, testCommandSha256: sha256(rules.testCommand) }, snapshot };
}

export interface LockCheck {
  readonly violations: readonly TreeChange[];
  /** True when the test command differs from the locked one (it comes from project.json, which no agent writes). */
  readonly commandChanged: boolean;
}

export async function checkLock(worktree: string, lock: Lock, rules: LockRules): Promise<LockCheck> {
  const now = lockedPart(await snapshotTree(worktree), rules);
  return { violations: diffTrees(lock.snapshot, now), commandChanged: sha256(rules.testCommand) !== lock.set.testCommandSha256 };
}

/** Put every locked file back as it was locked; remove test files added since. */
export async function restoreLock(worktree: string, violations: readonly TreeChange[]): Promise<void> {
  await revertChanges(worktree, violations);
}

function lockedPart(tree: TreeSnapshot, rules: LockRules): Map<string, FileState> {
  return new Map([...tree].filter(([path]) => isLocked(path, rules)));
}
