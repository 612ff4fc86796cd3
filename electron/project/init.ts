/**
 * `baton init`: create `.baton/project.json` with defaults detected from the repository, plus the
 * empty folders later work lands in. Never overwrites an existing project.json without `force`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { err, ok, type Result } from '../../shared/result';
import { APPEND_FLAGS, mkdirInside, writeFileInside } from '../platform/contained-write';
import { readRegularFile } from '../platform/safe-read';
import { writeCiWorkflow, type CiKind } from './ci-template';
import { MAX_ARTIFACT_BYTES } from './read-context';
import { readSettings } from './read-settings';
import { detectDefaults, type ProjectSettings } from './settings';

const run = promisify(execFile);

export interface InitOutcome {
  readonly root: string;
  readonly settingsFile: string;
  readonly settings: ProjectSettings;
  readonly created: readonly string[];
}

export async function initProject(dir: string, options: { force?: boolean; ci?: CiKind } = {}): Promise<Result<InitOutcome>> {
  const root = resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) return err('not-found', `${root} is not a folder. Create it (and \`git init\` it) first.`);

  const gitTop = await run('git', ['-C', root, 'rev-parse', '--show-toplevel']).then(
    (r) => r.stdout.trim(),
    () => null,
  );
  if (!gitTop) {
    return err(
      'not-a-git-repository',
      `${root} is not a git repository. Baton pairs every git branch with a database branch, so it needs one: run \`git init\` there (or pick the repository's folder), then \`baton init\` again.`,
    );
  }

  const batonDir = join(root, '.baton');
  const settingsFile = join(batonDir, 'project.json');
  if (existsSync(settingsFile) && !options.force) {
    // `--ci` on a project that has its settings: only the workflow is added.
    if (options.ci) return addWorkflow(root, settingsFile, options.ci);
    return err('already-initialised', `${settingsFile} already exists. Nothing was changed; pass --force to rewrite it with fresh defaults.`);
  }

  const settings = await detectDefaults({
    name: basename(root),
    defaultBranch: await currentBranch(root),
    // The project's own files (package.json, lockfiles): regular files inside it only, so a FIFO never blocks init.
    readText: (file) =>
      readRegularFile(join(root, file), { maxBytes: MAX_ARTIFACT_BYTES, root, followInside: true }).then(
        (bytes) => bytes.toString('utf8'),
        () => null,
      ),
    exists: (file) => existsSync(join(root, file)),
  });
  const folders = ['features', 'ledger', join('ledger', 'blobs'), 'state'].map((f) => join(batonDir, f));
  // Never through a link at `.baton/` or below (contained-write.ts): the project's own folders only.
  for (const folder of folders) await mkdirInside(root, folder);
  await writeFileInside(root, settingsFile, JSON.stringify(settings, null, 2) + '\n');
  await (await open(join(batonDir, 'ledger', 'events.jsonl'), APPEND_FLAGS, 0o666)).close();
  const workflow = options.ci ? [await writeCiWorkflow(root, options.ci, settings.defaultBranch, options.force === true)] : [];
  return ok({ root, settingsFile, settings, created: [settingsFile, ...folders, ...workflow] });
}

async function addWorkflow(root: string, settingsFile: string, ci: CiKind): Promise<Result<InitOutcome>> {
  const read = await readSettings(dirname(settingsFile));
  if (!read.ok) return read;
  try {
    const file = await writeCiWorkflow(root, ci, read.value.settings.defaultBranch, false);
    return ok({ root, settingsFile, settings: read.value.settings, created: [file] });
  } catch (error) {
    return err('already-initialised', error instanceof Error ? error.message : String(error));
  }
}

async function currentBranch(root: string): Promise<string> {
  // A fresh repository has no commit yet, so ask for the symbolic HEAD rather than rev-parse.
  return run('git', ['-C', root, 'symbolic-ref', '--short', 'HEAD']).then(
    (r) => r.stdout.trim() || 'main',
    () => 'main',
  );
}
