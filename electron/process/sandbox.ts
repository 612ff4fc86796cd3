/**
 * The Linux sandbox for commands an agent (or an agent's tests) runs: bubblewrap, where it works.
 * Inside, only the system's read-only runtime is there (`/usr`, `/bin`, `/lib*`, `/etc` without its
 * secrets, the node runtime), plus what the work needs: the given folders (the turn's worktree)
 * writable, the folders it reads read-only. Nothing else of the machine: not the user's home,
 * other projects, `/root`, `/home`, `/var`, `/sys`. `/dev` and `/proc` are fresh, `/tmp` is a
 * private tmpfs that is thrown away, and HOME points into it unless it is a folder shown. The
 * network is shared unless `network: 'cut'` (the orchestrator's test runs: their database comes
 * through a Unix socket, db-bridge.ts). The sandbox has its own PID
 * namespace, so stopping the run stops every process it started.
 *
 * The `sandbox` setting of `.baton/project.json` decides what happens without bubblewrap:
 * `auto` (default) runs unsandboxed and says so, `off` never sandboxes, `required` refuses.
 * The diff of the worktree after each turn stays the authority on scope; this is a second wall.
 */
import { execFile } from 'node:child_process';
import { constants, realpathSync } from 'node:fs';
import { access, lstat, readFile, readlink, realpath } from 'node:fs/promises';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { runtimePaths, SYSTEM_DIRS, systemMounts } from './sandbox-mounts';
import type { SANDBOX_SETTINGS } from '../project/settings';

export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];
export const DEFAULT_SANDBOX: SandboxSetting = 'auto';

/** What bubblewrap can do on this machine, probed once per process (per binary name). */
export type BubblewrapSupport =
  | { readonly ok: true; readonly path: string; readonly flags: readonly string[]; readonly unshareNet: boolean }
  | { readonly ok: false; readonly reason: string; readonly fix: string };

/** Folders hidden by the sandbox's private tmpfs. */
const PRIVATE_DIRS = ['/tmp'];
/**
 * Always: no capabilities (run as root, bubblewrap would keep them, and root with CAP_SYS_ADMIN
 * simply remounts `/` read-write), the system's runtime read-only, fresh /dev and /proc, the private /tmp.
 */
const BASE = () => ['--cap-drop', 'ALL', ...systemMounts(), '--dev', '/dev', '--proc', '/proc', ...PRIVATE_DIRS.flatMap((d) => ['--tmpfs', d])];
/** Used when they work: one PID namespace (a stop kills the whole tree), death with Baton, no terminal. */
const OPTIONAL_FLAGS = ['--unshare-pid', '--die-with-parent', '--new-session'];
const PROBE_TIMEOUT_MS = 10_000;

const cache = new Map<string, Promise<BubblewrapSupport>>();

/** Whether bubblewrap works here. `binary` is a name looked up on PATH, or a path (tests point it at a missing one). */
export function detectBubblewrap(binary = 'bwrap'): Promise<BubblewrapSupport> {
  let found = cache.get(binary);
  if (!found) {
    found = probe(binary);
    cache.set(binary, found);
  }
  return found;
}

async function probe(binary: string): Promise<BubblewrapSupport> {
  if (process.platform !== 'linux') {
    return { ok: false, reason: `bubblewrap is Linux-only and this is ${process.platform}`, fix: 'set "sandbox" to "auto" or "off" in .baton/project.json' };
  }
  const path = await findExecutable(binary);
  if (!path)
    return {
      ok: false,
      reason: `${binary} not found on PATH`,
      fix: 'install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap) or set "sandbox" to "auto" in .baton/project.json',
    };
  const base = await run(path, [...BASE(), 'true']);
  if (!base.ok) {
    return {
      ok: false,
      reason: `${path} is installed but cannot make a sandbox here (${base.message})`,
      fix: 'allow unprivileged user namespaces (for example sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu an AppArmor profile for bwrap) or set "sandbox" to "auto" in .baton/project.json',
    };
  }
  const flags: string[] = [];
  for (const flag of OPTIONAL_FLAGS) if ((await run(path, [...BASE(), flag, 'true'])).ok) flags.push(flag);
  return { ok: true, path, flags, unshareNet: (await run(path, [...BASE(), '--unshare-net', 'true'])).ok };
}

/** The first executable file named `binary` on PATH (`path`, default process.env.PATH), or at that path. */
export async function findExecutable(binary: string, path: string = process.env.PATH ?? ''): Promise<string | null> {
  const candidates = binary.includes('/')
    ? [resolve(binary)]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, binary));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      if ((await lstat(candidate)).isDirectory()) continue;
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

function run(file: string, args: string[]): Promise<{ ok: true } | { ok: false; message: string }> {
  return new Promise((done) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS, cwd: '/' }, (error, _stdout, stderr) => {
      if (!error) return done({ ok: true });
      const text = `${stderr}`.trim().split('\n')[0] || error.message;
      done({ ok: false, message: text });
    });
  });
}

export class SandboxUnavailableError extends Error {
  constructor(readonly support: Extract<BubblewrapSupport, { ok: false }>) {
    super(`The sandbox is "required" ("sandbox" in .baton/project.json) but bubblewrap cannot be used: ${support.reason}. To fix: ${support.fix}.`);
    this.name = 'SandboxUnavailableError';
  }
}

/** How to launch a command: `file args… /bin/sh -c <command>` (runCommand's `launcher`). */
export interface Launcher {
  readonly file: string;
  readonly args: readonly string[];
}

export interface Sandbox {
  /** True when commands really run inside bubblewrap. */
  readonly active: boolean;
  /** True when they run without network (`network: 'cut'` and bubblewrap could). */
  readonly netCut?: boolean;
  /** One line for a transcript: whether and how commands are sandboxed. */
  readonly note: string;
  /** The launcher and environment for a command run in `cwd`; unsandboxed: no launcher and `env` unchanged. */
  spawnOptions(cwd: string, env: NodeJS.ProcessEnv): { readonly env: NodeJS.ProcessEnv; readonly launcher?: Launcher };
}

/** A file shown read-only inside at `dest`. */
export interface Placed {
  readonly source: string;
  readonly dest: string;
}

export interface OpenSandboxOptions {
  /** The bubblewrap binary: a name on PATH or a path. Default `bwrap`. */
  readonly binary?: string;
  /** More folders to show read-only even if they are under the private /tmp (for example the project root). */
  readonly readOnly?: readonly string[];
  /**
   * Folders the commands must not see at all (Baton's config and data folders, its installation):
   * covered by an empty tmpfs. A writable or read-only folder inside one is shown again on top.
   */
  readonly hide?: readonly string[];
  /** Files inside the writable folders bound read-only on top (an agent's locked tests): a write fails. */
  readonly protect?: readonly string[];
  /** Files shown read-only at another path inside (the sealed runtime: sealed-node.ts). */
  readonly placed?: readonly Placed[];
  /** `cut`: no network inside (a namespace of its own with only loopback), where bubblewrap can. Default `shared`. */
  readonly network?: 'cut' | 'shared';
  /**
   * Process ids used up inside the PID namespace before the command starts (a test run shaped unlike
   * the one before it: test-run.ts), so its processes get larger ids than a first run's. Default 0.
   */
  readonly pidShift?: number;
}

/**
 * The sandbox for commands whose only writable folders are `writable` (they must exist).
 * Throws SandboxUnavailableError when the setting is `required` and bubblewrap cannot be used.
 */
export async function openSandbox(setting: SandboxSetting | undefined, writable: readonly string[], options: OpenSandboxOptions = {}): Promise<Sandbox> {
  const mode = setting ?? DEFAULT_SANDBOX;
  if (mode === 'off') return unsandboxed(`[sandbox] off ("sandbox": "off" in .baton/project.json): running unsandboxed${UNSANDBOXED}`);
  const support = await detectBubblewrap(options.binary);
  if (!support.ok) {
    if (mode === 'required') throw new SandboxUnavailableError(support);
    return unsandboxed(`[sandbox] not available (${support.reason}): running unsandboxed${UNSANDBOXED}`);
  }
  const args = await bubblewrapArgs(writable, options.readOnly ?? [], options.hide ?? [], options.protect ?? [], options.placed ?? []);
  const cut = options.network === 'cut' && support.unshareNet;
  const flags = [...support.flags, ...(cut ? ['--unshare-net'] : [])];
  const shift = Math.max(0, Math.floor(options.pidShift ?? 0));
  // Each `: &` is a fork that exits at once (all started before any is waited for, so two cores share them):
  // the ids they take are not given out again until the namespace's ids wrap, far beyond a test run.
  const shifter =
    shift > 0 && support.flags.includes('--unshare-pid')
      ? ['/bin/sh', '-c', `i=0; while [ $i -lt ${shift} ]; do : & i=$((i+1)); done; wait; exec "$@"`, 'baton-shift']
      : [];
  const network = options.network !== 'cut' ? '' : cut ? '; no network' : '; network shared (this bubblewrap cannot unshare it)';
  return {
    active: true,
    netCut: cut,
    note: `[sandbox] bubblewrap: only the worktree is writable; nothing of the machine but its runtime is readable (shown read-only: ${shownList(args)})${network}`,
    spawnOptions: (cwd, env) => ({
      env: sandboxEnv(env, args),
      launcher: { file: support.path, args: [...args, ...flags, '--chdir', realCwd(cwd), '--', ...shifter] },
    }),
  };
}

/** What an unsandboxed command can do, said with every note that it is one. */
const UNSANDBOXED =
  ' — none of the sandbox holds: it can read your files (your home, ~/.ssh, other projects) and write outside the worktree (changes there are found and reverted after the turn, not blocked)';

function unsandboxed(note: string): Sandbox {
  return { active: false, note, spawnOptions: (_cwd, env) => ({ env }) };
}

/**
 * The mounts: no capabilities, the system's runtime read-only, fresh /dev and /proc, a private /tmp,
 * then read-only what the commands read (the folders given, the node runtime, and what a writable
 * folder needs: its node_modules link's target, its git metadata), then the writable folders themselves.
 */
export async function bubblewrapArgs(
  writable: readonly string[],
  readOnly: readonly string[] = [],
  hide: readonly string[] = [],
  protect: readonly string[] = [],
  placed: readonly Placed[] = [],
): Promise<string[]> {
  const rw: string[] = [];
  for (const dir of writable) {
    const real = await realpath(dir);
    if (real === '/') throw new Error('The sandbox cannot make the whole filesystem writable: give it the worktree.');
    rw.push(real);
  }
  // Hidden folders that exist (a tmpfs needs a mount point), outermost first; never one holding the writable folders' whole world.
  const hidden: string[] = [];
  for (const dir of hide) {
    const real = await realpath(dir).catch(() => null);
    if (real && real !== '/' && !hidden.includes(real) && !isHidden(real, [])) hidden.push(real);
  }
  hidden.sort((a, b) => a.length - b.length);
  const ro = new Map<string, string>(); // destination → source
  const show = async (path: string): Promise<void> => {
    const dest = resolve(path);
    const shown = SYSTEM_DIRS.some((d) => within(dest, d)) && !isHidden(dest, hidden);
    if (shown || rw.some((w) => within(dest, w)) || [...ro.keys()].some((r) => within(dest, r))) return;
    const source = await realpath(dest).catch(() => null);
    if (source) ro.set(dest, source);
  };
  for (const path of [...readOnly, ...runtimePaths()]) await show(path);
  for (const dir of rw) for (const path of await neededFrom(dir)) await show(path);
  return [
    ...BASE(),
    ...hidden.flatMap((dir) => ['--tmpfs', dir]),
    ...[...ro].flatMap(([dest, source]) => ['--ro-bind', source, dest]),
    ...rw.flatMap((dir) => ['--bind', dir, dir]),
    ...(await protectedFiles(protect, rw)).flatMap((file) => ['--ro-bind', file, file]),
    ...placed.flatMap((p) => ['--ro-bind', p.source, p.dest]),
    // Read-only once what is shown inside is mounted: a write there fails instead of landing in the tmpfs.
    ...hidden.flatMap((dir) => ['--remount-ro', dir]),
    // The root bubblewrap builds its mounts on is a tmpfs: read-only too, so a write beside the worktree fails.
    '--remount-ro',
    '/',
  ];
}

/** The real paths of existing regular files inside a writable folder (a link could point anywhere). */
async function protectedFiles(files: readonly string[], rw: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    const info = await lstat(file).catch(() => null);
    if (!info?.isFile()) continue;
    const real = await realpath(file);
    if (rw.some((w) => within(real, w) && real !== w)) out.push(real);
  }
  return out;
}

/** Paths outside `dir` that commands in it read: the node_modules link's target, the git metadata of a worktree. */
async function neededFrom(dir: string): Promise<string[]> {
  const out: string[] = [];
  const link = join(dir, 'node_modules');
  const target = await readlink(link).catch(() => null);
  if (target !== null) out.push(resolve(dirname(link), target));
  const dotGit = await readFile(join(dir, '.git'), 'utf8').catch(() => null);
  const gitdir = dotGit === null ? null : /^gitdir:\s*(.+)$/m.exec(dotGit)?.[1]?.trim();
  if (gitdir) {
    const absolute = resolve(dir, gitdir);
    out.push(absolute);
    const common = (await readFile(join(absolute, 'commondir'), 'utf8').catch(() => '')).trim();
    if (common) out.push(resolve(absolute, common));
  }
  return out;
}

function isHidden(path: string, hidden: readonly string[]): boolean {
  return [...PRIVATE_DIRS, ...hidden].some((d) => within(path, d));
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The working folder inside the sandbox: its real path, as the writable folders are bound at theirs. */
function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

/**
 * Inside, temporary files go to the private /tmp; HOME too unless it is a folder the sandbox shows (a
 * real agent's private home), as the user's own is not there; Go's build cache likewise, unless set.
 */
function sandboxEnv(env: NodeJS.ProcessEnv, args: readonly string[]): NodeJS.ProcessEnv {
  const mounted = (dir: string) => args.some((a, i) => i > 0 && (args[i - 1] === '--bind' || args[i - 1] === '--ro-bind') && a === dir && args[i + 1] === dir);
  const home = env.HOME && (mounted(env.HOME) || mounted(realCwd(env.HOME))) ? env.HOME : '/tmp';
  return { ...env, HOME: home, TMPDIR: '/tmp', ...(env.GOCACHE ? {} : { GOCACHE: '/tmp/go-build' }) };
}

/** What the mounts show read-only beyond the system's runtime, for the note. */
function shownList(args: readonly string[]): string {
  const shown = args.flatMap((a, i) =>
    args[i - 1] === '--ro-bind' && args[i + 1] !== undefined && a !== '/dev/null' && !SYSTEM_DIRS.includes(args[i + 1]!) ? [args[i + 1]!] : [],
  );
  return shown.length ? shown.join(', ') : 'nothing';
}
