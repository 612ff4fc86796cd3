/**
 * What every sandbox shows of the machine (sandbox.ts): the system's runtime read-only, `/etc` with
 * its secrets covered, and the node runtime's install folder when it lives elsewhere (nvm, /opt).
 * Read once per process: none of it changes while Baton runs.
 */
import { accessSync, constants, lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, delimiter, dirname, join, sep } from 'node:path';

/** The system's runtime, shown read-only where it exists (a link such as `/bin -> usr/bin` stays a link). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];
/** Secrets under `/etc` that no command needs: covered (files by an empty file, folders by an empty tmpfs). */
const ETC_SECRET = /^(shadow|gshadow|shadow-|gshadow-|sudoers|security\/opasswd|ssl\/private|ssh\/ssh_host_.*_key|.*credentials.*)$/;

let systemCache: string[] | null = null;

/** The system folders that exist here, each bound read-only (or made the same link), and `/etc`'s secrets covered. */
export function systemMounts(): string[] {
  if (systemCache) return systemCache;
  const out: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const info = lstatOrNull(dir);
    if (!info) continue;
    if (info.isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir);
    else if (info.isDirectory()) out.push('--ro-bind', dir, dir);
  }
  for (const secret of etcSecrets())
    out.push(...(secret.dir ? ['--tmpfs', secret.path, '--remount-ro', secret.path] : ['--ro-bind', '/dev/null', secret.path]));
  systemCache = out;
  return out;
}

/** The secrets `/etc` holds here (ETC_SECRET), at most two folders deep. */
function etcSecrets(): { path: string; dir: boolean }[] {
  const out: { path: string; dir: boolean }[] = [];
  const walk = (rel: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(join('/etc', rel));
    } catch {
      return;
    }
    for (const name of names) {
      const path = rel ? `${rel}/${name}` : name;
      const info = lstatOrNull(join('/etc', path));
      if (!info || info.isSymbolicLink()) continue;
      if (ETC_SECRET.test(path)) out.push({ path: join('/etc', path), dir: info.isDirectory() });
      else if (info.isDirectory() && depth < 2) walk(path, depth + 1);
    }
  };
  walk('', 0);
  return out;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

let runtimeCache: string[] | null = null;

/**
 * The runtimes commands start that live outside the system folders (a node under ~/.nvm or /opt):
 * the install folder of `node` on PATH, and of Baton's own runtime when it is node.
 */
export function runtimePaths(): string[] {
  if (runtimeCache) return runtimeCache;
  const out = new Set<string>();
  const candidates = [basename(process.execPath).startsWith('node') ? process.execPath : null, whichSync('node')];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const real = realOr(candidate);
    if (!SYSTEM_DIRS.some((d) => within(real, d))) out.add(dirname(dirname(real)));
    if (!SYSTEM_DIRS.some((d) => within(candidate, d))) out.add(dirname(candidate));
  }
  runtimeCache = [...out];
  return runtimeCache;
}

function whichSync(binary: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      if (!statSync(candidate).isDirectory()) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

const within = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
