/**
 * Undo changes in a worktree from a snapshot taken with content: an added file is removed, a
 * changed or deleted one rewritten (mode and symlinks included), a rename undone. The orchestrator
 * runs this outside any sandbox, so it never follows a link: a path a turn turned into a folder is
 * removed as a whole, and a parent folder a turn replaced with a link (or a file) is put back as a
 * folder before anything is written under it.
 */
import { chmod, lstat, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TreeChange } from './tree-diff';
import type { FileState } from './tree-snapshot';

export async function revertChanges(root: string, changes: readonly TreeChange[]): Promise<void> {
  for (const change of changes) {
    switch (change.kind) {
      case 'added':
        await removeInside(root, change.path);
        break;
      case 'changed':
      case 'deleted':
      case 'mode':
        await restore(root, change.path, change.before);
        break;
      case 'renamed':
        await removeInside(root, change.path);
        await restore(root, change.from, change.before);
        break;
    }
  }
}

export async function restore(root: string, path: string, state: FileState): Promise<void> {
  if (!state.content) throw new Error(`Cannot restore ${path}: the snapshot was taken without content.`);
  const abs = join(root, path);
  await realFolders(root, dirname(path));
  await rm(abs, { force: true, recursive: true });
  if (state.symlink !== null) await symlink(state.symlink, abs);
  else {
    await writeFile(abs, state.content);
    await chmod(abs, state.mode);
  }
}

/** Removes `path` (a file, a link, or a folder it became) when its parents are real folders; a link on the way means it is not there. */
async function removeInside(root: string, path: string): Promise<void> {
  let at = root;
  for (const part of dirname(path)
    .split('/')
    .filter((p) => p && p !== '.')) {
    at = join(at, part);
    const stat = await lstat(at).catch(() => null);
    if (!stat?.isDirectory()) return;
  }
  await rm(join(root, path), { force: true, recursive: true });
}

/** Makes every folder of `dir` (relative to root) a real folder: a link or a file in the way is removed, never followed. */
async function realFolders(root: string, dir: string): Promise<void> {
  let at = root;
  for (const part of dir.split('/').filter((p) => p && p !== '.')) {
    at = join(at, part);
    const stat = await lstat(at).catch(() => null);
    if (stat?.isDirectory()) continue;
    if (stat) await rm(at, { force: true });
    await mkdir(at);
  }
}
