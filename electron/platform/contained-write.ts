/**
 * The one rule for every file Baton writes into a folder someone else can also write (the project,
 * `.baton/`, a worktree an agent has just worked in): it stays inside that folder. A symbolic link
 * planted at any component — `.baton/ledger/blobs -> ~/.ssh`, a worktree's `src -> /etc` — would
 * otherwise carry Baton's write (with Baton's permissions) to wherever it points. So before writing:
 * - every component from `root` (exclusive) down to the file (inclusive, when it exists) is lstat'ed
 *   and a symbolic link is refused — not followed even when its target is inside `root`, because a
 *   write through a link is never what Baton meant;
 * - the missing folders are made one at a time (each `mkdir` of a name that is a link fails: EEXIST);
 * - the file is opened `O_NOFOLLOW` (a link swapped in at the last component is refused atomically).
 * A link swapped in at a *folder* component between the check and the open is the window left: Node
 * has no `openat`, so it is narrowed, not closed (docs/security.md).
 */
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { errorCode } from './fs-facts';

export class ContainedWriteError extends Error {
  override readonly name = 'ContainedWriteError';
  constructor(
    /** The file Baton meant to write. */
    readonly file: string,
    /** The component that is a link (or the file that leads outside). */
    readonly link: string,
    message: string,
  ) {
    super(message);
  }
}

export const isContainedWriteError = (error: unknown): error is ContainedWriteError => error instanceof ContainedWriteError;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** Create or truncate, write only, never through a link at the last component. */
export const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW;
/** Create or append, write only, never through a link at the last component. */
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | NOFOLLOW;

const linked = async (file: string, link: string): Promise<ContainedWriteError> => {
  const target = await fs.readlink(link).catch(() => '?');
  return new ContainedWriteError(
    file,
    link,
    `Baton did not write ${file}: ${link} is a symbolic link (to ${target}), and Baton writes only into the project's own folders. ` +
      'Replace the link with a real folder (or file) and try again.',
  );
};

/** The components of `file` below `root`, as absolute paths from the outermost; throws when `file` is not under `root`. */
const componentsBelow = (root: string, file: string): string[] => {
  const base = path.resolve(root);
  const rel = path.relative(base, path.resolve(file));
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
    throw new ContainedWriteError(file, file, `Baton did not write ${file}: it is not inside ${base}, the folder it writes into.`);
  const parts = rel.split(path.sep);
  return parts.map((_, i) => path.join(base, ...parts.slice(0, i + 1)));
};

/** The existing component's lstat (null when it does not exist); a link is refused. */
const lstatNoLink = async (file: string, component: string) => {
  const stat = await fs.lstat(component).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  });
  if (stat?.isSymbolicLink()) throw await linked(file, component);
  return stat;
};

/** Refuses (ContainedWriteError) when `file` is not under `root` or any existing component of it below `root` — the file itself included — is a symbolic link. */
export async function refuseLinksBelow(root: string, file: string): Promise<void> {
  for (const component of componentsBelow(root, file)) if ((await lstatNoLink(file, component)) === null) return;
}

/** Makes `dir` (and its missing parents) inside `root`, one folder at a time, refusing a link at any component. */
export async function mkdirInside(root: string, dir: string): Promise<void> {
  // `root` itself is the caller's to trust (the project folder the user chose): made if missing, not checked.
  await fs.mkdir(root, { recursive: true });
  if (path.resolve(dir) === path.resolve(root)) return;
  for (const folder of componentsBelow(root, dir)) {
    if ((await lstatNoLink(dir, folder)) !== null) continue;
    await fs.mkdir(folder).catch(async (error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
      await lstatNoLink(dir, folder); // made by someone else meanwhile: fine unless it is a link
    });
  }
}

/** Writes `content` to `file` inside `root` (making its folders), under the rules at the top of this file. */
export async function writeFileInside(root: string, file: string, content: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  await mkdirInside(root, path.dirname(file));
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, WRITE_FLAGS, options.mode ?? 0o666);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP' || code === 'EMLINK') throw await linked(file, file);
    throw error;
  }
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** Removes `file` inside `root` (nothing when it is missing); a link at a folder above it is refused, a link at `file` itself is removed, not followed. */
export async function removeInside(root: string, file: string): Promise<void> {
  const folder = path.dirname(file);
  if (path.resolve(folder) !== path.resolve(root)) await refuseLinksBelow(root, folder);
  await fs.rm(file, { force: true });
}
