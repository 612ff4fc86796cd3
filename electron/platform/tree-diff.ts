/**
 * The difference between two snapshots of a worktree, as the orchestrator judges an agent turn:
 * added, changed, deleted, renamed (same content, new path), mode changes and symlinks. Pure.
 */
import type { FileState, TreeSnapshot } from './tree-snapshot';

export type TreeChange =
  | { readonly kind: 'added'; readonly path: string; readonly after: FileState }
  | { readonly kind: 'changed'; readonly path: string; readonly before: FileState; readonly after: FileState }
  | { readonly kind: 'deleted'; readonly path: string; readonly before: FileState }
  | { readonly kind: 'renamed'; readonly path: string; readonly from: string; readonly before: FileState; readonly after: FileState }
  | { readonly kind: 'mode'; readonly path: string; readonly before: FileState; readonly after: FileState };

/** Every path a change touches (a rename touches both). */
export function touchedPaths(change: TreeChange): string[] {
  return change.kind === 'renamed' ? [change.from, change.path] : [change.path];
}

export function diffTrees(before: TreeSnapshot, after: TreeSnapshot): TreeChange[] {
  const added: Array<[string, FileState]> = [];
  const deleted = new Map<string, FileState>();
  const changes: TreeChange[] = [];
  for (const [path, was] of before) {
    const now = after.get(path);
    if (!now) deleted.set(path, was);
    else if (now.sha256 !== was.sha256 || now.symlink !== was.symlink) changes.push({ kind: 'changed', path, before: was, after: now });
    else if (now.mode !== was.mode) changes.push({ kind: 'mode', path, before: was, after: now });
  }
  for (const [path, now] of after) if (!before.has(path)) added.push([path, now]);
  // A deleted file whose exact content reappears elsewhere was renamed (first match, in path order).
  for (const [path, now] of added) {
    const from = [...deleted].find(([, was]) => was.sha256 === now.sha256 && was.symlink === now.symlink)?.[0];
    if (from !== undefined) {
      changes.push({ kind: 'renamed', path, from, before: deleted.get(from)!, after: now });
      deleted.delete(from);
    } else changes.push({ kind: 'added', path, after: now });
  }
  for (const [path, was] of deleted) changes.push({ kind: 'deleted', path, before: was });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
