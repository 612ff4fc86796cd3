/**
 * Dependency requests (shared/dependencies.ts): after a GREEN turn, the packages the Driver asked
 * for are installed by the orchestrator, never by the agent. npm installs them (scripts off) into
 * the feature's own folder — `<data>/dependencies/<feature>/install`, or a lane's own below it while
 * lanes are built apart (laneDependenciesDir) — whose node_modules then also links every package
 * the project already has: that folder is what the lane's test runs see.
 * The worktree's package.json (and package-lock.json, rewritten by npm) get the new entries; the
 * `cycle.dependencies` record carries both files as blobs, and the locks follow them (feature-lock.ts):
 * an audited amendment of the locked manifest, shown to the PO with the acceptance evidence.
 */
import { existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, readdir, realpath, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dependencyRequestsIn, type DependencyRequest, type RefusedRequest } from '../../shared/dependencies';
import { quoteArg, runCommand } from '../process/run-command';
import { writeFileInside } from '../platform/contained-write';
import { isSafeReadError, readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES } from '../project/read-context';
import { sha256 } from '../platform/tree-snapshot';
import type { CycleDeps } from './cycle-deps';
import type { Blob } from './records';
import { KeyedLock } from '../platform/keyed-lock';

export interface DependencyOutcome {
  readonly manager: string | null;
  readonly requested: DependencyRequest[];
  readonly installed: Array<DependencyRequest & { version: string }>;
  readonly refused: RefusedRequest[];
  readonly files: Array<{ path: string; before: string | null; sha256: string; bytes: number; mode: number }>;
  readonly blobs: Blob[];
}

const MANIFEST = 'package.json';
const LOCKFILE = 'package-lock.json';
const OTHER_MANAGERS: ReadonlyArray<[string, string]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
];
const NPM_FLAGS = ['--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** One install at a time in a folder (a lane's cycles and the gathering after the merge may meet there). */
const installs = new KeyedLock();

/** The requests in what the Driver said, honoured or refused; null when it asked for nothing. */
export function honourRequests(deps: CycleDeps, worktree: string, step: string, said: string): Promise<DependencyOutcome | null> {
  return installs.run(deps.dependenciesDir, () => honour(deps, worktree, step, said));
}

async function honour(deps: CycleDeps, worktree: string, step: string, said: string): Promise<DependencyOutcome | null> {
  const { requests, refused } = dependencyRequestsIn(said);
  if (requests.length === 0 && refused.length === 0) return null;
  const decline = (why: string): DependencyOutcome => ({
    manager: null,
    requested: requests,
    installed: [],
    refused: [...refused, ...requests.map((r) => ({ line: `${r.name}@${r.spec}${r.dev ? ' --dev' : ''}`, why }))],
    files: [],
    blobs: [],
  });
  if (requests.length === 0) return decline('');
  // Only a GREEN turn's: its change is committed with the GREEN, or the repair rounds carry it on (green-steps.ts).
  if (step !== 'green') return decline('packages are installed for GREEN turns (the first or a repair) only: ask for it there');
  if (deps.settings.dependencyRequests === 'refuse')
    return decline('"dependencyRequests" is "refuse" in .baton/project.json: add the package on the default branch yourself');
  // The worktree is the agent's: its package.json may be a link to a file of the user's, never read or written through.
  const manifest = await worktreeFile(worktree, MANIFEST).catch((error: unknown) => (isSafeReadError(error) ? error : Promise.reject(error)));
  if (manifest === null) return decline('Baton installs requested packages for npm projects (a package.json) only: add it to the project yourself');
  if (isSafeReadError(manifest)) return decline(`${MANIFEST} ${manifest.detail}`);
  const other = OTHER_MANAGERS.find(([file]) => existsSync(join(worktree, file)));
  if (other) return decline(`this project uses ${other[1]} (${other[0]}); Baton installs requested packages with npm only: add it yourself`);
  const manifestText = manifest.toString('utf8');
  try {
    withEntries(manifestText, []);
  } catch (error) {
    return decline(`${MANIFEST} is not valid JSON (${(error as Error).message}): fix it on the default branch`);
  }
  const install = join(deps.dependenciesDir, 'install');
  const log: string[] = [];
  const npm = (cwd: string, args: string[]) => npmIn(deps, cwd, args, log);
  await prepareInstall(install);
  for (const dev of [false, true]) {
    const wanted = requests.filter((r) => r.dev === dev);
    if (wanted.length === 0) continue;
    const failed = await npm(install, ['install', dev ? '--save-dev' : '--save', ...wanted.map((r) => `${r.name}@${r.spec}`)]);
    if (failed) {
      await linkProjectPackages(deps, install);
      return { ...decline(`npm could not install it: ${failed}`), manager: 'npm', blobs: [{ name: 'dependencies/npm.log', content: log.join('\n') }] };
    }
  }
  await linkProjectPackages(deps, install);
  const saved = JSON.parse(await readFile(join(install, MANIFEST), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const installed = await Promise.all(
    requests.map(async (r) => ({
      ...r,
      spec: saved[r.dev ? 'devDependencies' : 'dependencies']?.[r.name] ?? r.spec,
      version: ((JSON.parse(await readFile(join(install, 'node_modules', r.name, MANIFEST), 'utf8')) as { version?: string }).version ?? '?').slice(0, 100),
    })),
  );
  // The worktree's manifest gets the entries; npm rewrites its lockfile from it.
  const before = new Map<string, Buffer | null>();
  for (const file of [MANIFEST, LOCKFILE]) before.set(file, await worktreeFile(worktree, file));
  await writeFileInside(worktree, join(worktree, MANIFEST), withEntries(before.get(MANIFEST)!.toString('utf8'), installed));
  if (before.get(LOCKFILE)) {
    const stage = join(deps.dependenciesDir, 'lockfile');
    await rm(stage, { recursive: true, force: true });
    await mkdir(stage, { recursive: true });
    for (const file of [MANIFEST, LOCKFILE]) await copyFile(join(worktree, file), join(stage, file));
    const failed = await npm(stage, ['install', '--package-lock-only']);
    if (failed) {
      await writeFileInside(worktree, join(worktree, MANIFEST), before.get(MANIFEST)!);
      return { ...decline(`npm could not update ${LOCKFILE}: ${failed}`), manager: 'npm', blobs: [{ name: 'dependencies/npm.log', content: log.join('\n') }] };
    }
    await writeFileInside(worktree, join(worktree, LOCKFILE), await readFile(join(stage, LOCKFILE)));
  }
  const files: DependencyOutcome['files'] = [];
  const blobs: Blob[] = [{ name: 'dependencies/npm.log', content: log.join('\n') }];
  for (const [file, was] of before) {
    if (was === null) continue;
    const now = (await worktreeFile(worktree, file)) ?? Buffer.alloc(0);
    if (now.equals(was)) continue;
    files.push({ path: file, before: sha256(was), sha256: sha256(now), bytes: now.length, mode: (await stat(join(worktree, file))).mode & 0o777 });
    blobs.push({ name: `amended/${file}`, content: now });
  }
  return { manager: 'npm', requested: requests, installed, refused, files, blobs };
}

/** A worktree file's bytes (a regular file only: a link, FIFO or oversized file throws a SafeReadError), or null when missing. */
const worktreeFile = (worktree: string, file: string): Promise<Buffer | null> =>
  readRegularFile(join(worktree, file), { maxBytes: MAX_ARTIFACT_BYTES, root: worktree }).catch((error: unknown) =>
    isSafeReadError(error, 'missing') ? null : Promise.reject(error),
  );

/** Runs npm (scripts off) in `cwd`, its command and output appended to `log`: null when it succeeded, else its last words. */
async function npmIn(deps: CycleDeps, cwd: string, args: string[], log: string[]): Promise<string | null> {
  const command = ['npm', ...args, ...NPM_FLAGS].map(quoteArg).join(' ');
  log.push(`$ ${command}`);
  // npm's tokens stay out of its log (a registry URL's password is scrubbed anyway).
  const secrets = ['NPM_TOKEN', 'NODE_AUTH_TOKEN'].flatMap((name) => process.env[name] ?? []);
  const result = await runCommand(command, { cwd, timeoutMs: INSTALL_TIMEOUT_MS, secrets, ...(deps.signal ? { signal: deps.signal } : {}) }).catch(
    (error: Error) => ({
      code: 1,
      stdout: '',
      stderr: error.message,
    }),
  );
  log.push(result.stdout.trimEnd(), result.stderr.trimEnd());
  return result.code === 0 ? null : lastLines(result.stderr || result.stdout);
}

/**
 * The dependency folder a lane's cycles install into and run with (issue 30). Lanes built apart
 * each get a folder of their own (`lanes/<first story>` in the feature's), so a package one lane's
 * Driver asked for is invisible to another lane's runs, as it is to that lane's branch. The
 * feature's own folder serves a build of one lane, and a lane whose stories are merged already:
 * those build on the merged feature branch, which has every lane's packages (gatherLaneDependencies).
 */
export function laneDependenciesDir(featureDir: string, lanes: readonly (readonly string[])[], lane: readonly string[], merged: ReadonlySet<string>): string {
  const first = lane[0];
  if (lanes.length < 2 || first === undefined || lane.some((story) => merged.has(story))) return featureDir;
  return join(featureDir, LANES, first);
}

const LANES = 'lanes';

/**
 * Once the lanes are merged into the feature branch, the feature's folder gets every package a lane
 * installed, at the spec npm saved for it (npm again, preferring its cache: the lanes just fetched
 * them), so the merged suite and every later round on the feature branch see them all. Only what
 * the folder lacks is installed; nothing to gather, nothing runs.
 */
export function gatherLaneDependencies(deps: CycleDeps): Promise<void> {
  return installs.run(deps.dependenciesDir, () => gather(deps));
}

async function gather(deps: CycleDeps): Promise<void> {
  const manifest = async (install: string) =>
    JSON.parse(await readFile(join(install, MANIFEST), 'utf8').catch(() => '{}')) as Record<string, Record<string, string> | undefined>;
  const install = join(deps.dependenciesDir, 'install');
  const have = await manifest(install);
  const wanted = { dependencies: new Map<string, string>(), devDependencies: new Map<string, string>() };
  for (const lane of await readdir(join(deps.dependenciesDir, LANES)).catch(() => [] as string[])) {
    const theirs = await manifest(join(deps.dependenciesDir, LANES, lane, 'install'));
    for (const section of ['dependencies', 'devDependencies'] as const)
      for (const [name, spec] of Object.entries(theirs[section] ?? {})) if (have[section]?.[name] !== spec) wanted[section].set(name, spec);
  }
  if (wanted.dependencies.size + wanted.devDependencies.size === 0) return;
  const log: string[] = [];
  await prepareInstall(install);
  let failed: string | null = null;
  for (const section of ['dependencies', 'devDependencies'] as const) {
    const specs = [...wanted[section]].map(([name, spec]) => `${name}@${spec}`);
    if (specs.length && !failed)
      failed = await npmIn(deps, install, ['install', section === 'dependencies' ? '--save' : '--save-dev', '--prefer-offline', ...specs], log);
  }
  await linkProjectPackages(deps, install);
  // Said, not thrown: the merged suite's run then shows what a missing package breaks, and stops the run if it does.
  const outcome = failed ? `npm could not install them, so the merged feature's runs may miss them: ${failed}` : 'installed';
  deps.emit({
    kind: 'runner.output',
    item: null,
    chunk: `[baton] the lanes' packages, gathered for the merged feature: ${outcome}\n${log.filter(Boolean).join('\n')}\n`,
  });
}

/** What the feature's test runs link as node_modules: its installed requests over the project's packages, or the project's. */
export function dependenciesFor(deps: CycleDeps): string {
  const overlay = join(deps.dependenciesDir, 'install', 'node_modules');
  return existsSync(join(deps.dependenciesDir, 'install', LINKED)) ? overlay : join(deps.root, 'node_modules');
}

/** The project's own installed packages (read-only in a run that links the overlay). */
export async function projectPackages(deps: CycleDeps): Promise<string[]> {
  return [await realpath(join(deps.root, 'node_modules')).catch(() => null)].filter((p): p is string => p !== null);
}

/** The links this module added to the install's node_modules (removed before npm runs again, which would prune them). */
const LINKED = 'baton-linked.json';

async function prepareInstall(install: string): Promise<void> {
  await mkdir(install, { recursive: true });
  if (!existsSync(join(install, MANIFEST))) await writeFile(join(install, MANIFEST), '{\n  "name": "baton-dependencies",\n  "private": true\n}\n');
  const linked = JSON.parse(await readFile(join(install, LINKED), 'utf8').catch(() => '[]')) as string[];
  for (const path of linked) await unlink(join(install, 'node_modules', path)).catch(() => undefined);
  await rm(join(install, LINKED), { force: true });
}

/** Every package the project has that npm did not install here, linked into the install's node_modules (scopes and .bin merged). */
async function linkProjectPackages(deps: CycleDeps, install: string): Promise<void> {
  const base = await realpath(join(deps.root, 'node_modules')).catch(() => null);
  const out = join(install, 'node_modules');
  await mkdir(out, { recursive: true });
  const linked: string[] = [];
  const merge = async (from: string, to: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(from).catch(() => [] as string[])) {
      const target = join(to, entry);
      const here = await lstat(target).catch(() => null);
      if (!here) {
        await symlink(join(from, entry), target);
        linked.push(prefix + entry);
      } else if (here.isDirectory() && !here.isSymbolicLink() && (entry.startsWith('@') || entry === '.bin') && prefix === '') {
        await merge(await realpath(join(from, entry)), target, `${entry}/`);
      }
    }
  };
  if (base) await merge(base, out, '');
  await writeFile(join(install, LINKED), JSON.stringify(linked));
}

/** The manifest with each package under its section, sections sorted as npm keeps them, the file's indentation kept. */
function withEntries(text: string, installed: ReadonlyArray<DependencyRequest>): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  for (const r of installed) {
    const section = r.dev ? 'devDependencies' : 'dependencies';
    const entries = { ...((manifest[section] as Record<string, string> | undefined) ?? {}), [r.name]: r.spec };
    manifest[section] = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)));
  }
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  return `${JSON.stringify(manifest, null, indent)}\n`;
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-4).join(' ').slice(0, 600) || 'no output';
}
