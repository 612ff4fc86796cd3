/**
 * Undo changes in a worktree from a snapshot taken with content: an added file is removed, a
 * changed or deleted one rewritten (mode and symlinks included), a rename undone.
 */
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TreeChange } from './tree-diff';
import type { FileState } from './tree-snapshot';

export async function revertChanges(root: string, changes: readonly TreeChange[]): Promise<void> {
  for (const change of changes) {
    switch (change.kind) {
      case 'added':
        await rm(join(root, change.path), { force: true });
        break;
      case 'changed':
      case 'deleted':
      case 'mode':
        await restore(root, change.path, change.before);
        break;
      case 'renamed':
        await rm(join(root, change.path), { force: true });
        await restore(root, change.from, change.before);
        break;
    }
  }
}

export async function restore(root: string, path: string, state: FileState): Promise<void> {
  if (!state.content) throw new Error(`Cannot restore ${path}: the snapshot was taken without content.`);
  const abs = join(root, path);
  await mkdir(dirname(abs), { recursive: true });
  await rm(abs, { force: true });
  if (state.symlink !== null) await symlink(state.symlink, abs);
  else {
    await writeFile(abs, state.content);
    await chmod(abs, state.mode);
  }
}
