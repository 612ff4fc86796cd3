/**
 * Works out which artifact layout a folder holds. Baton's own `.baton/` wins over Consort's
 * `.consort/`, which wins over the older `.sftdd/`; a folder that holds `features/` directly is
 * itself an artifact root (someone opened `.consort/` rather than its project).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Layout, Problem } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';

export interface DetectedLayout {
  readonly root: string;
  readonly layout: Layout;
  readonly artifactRoot: string;
  /** E.g. a `.baton/` symlink that leads outside the folder and was passed over. */
  readonly problems: readonly Problem[];
}

const CANDIDATES: readonly { readonly folder: string; readonly layout: Layout }[] = [
  { folder: '.baton', layout: 'baton' },
  { folder: '.consort', layout: 'consort' },
  { folder: '.sftdd', layout: 'sftdd' },
];

const isDirectory = async (abs: string): Promise<boolean> => (await fs.stat(abs).catch(() => null))?.isDirectory() ?? false;

const inside = (realRoot: string, real: string): boolean => {
  const rel = path.relative(realRoot, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};

const bareLayout = (root: string): Layout => {
  const base = path.basename(root);
  if (base === '.sftdd') return 'sftdd';
  if (base === '.baton') return 'baton';
  return 'consort';
};

export const detectLayout = async (dir: string): Promise<Result<DetectedLayout>> => {
  const root = path.resolve(dir);
  const stat = await fs.stat(root).catch(() => null);
  if (stat === null) {
    return err('not-found', `${root} does not exist. Check the path, or choose an existing project folder.`);
  }
  if (!stat.isDirectory()) {
    return err('not-found', `${root} is a file, not a folder. Open the project's folder instead.`);
  }
  const realRoot = await fs.realpath(root);
  const problems: Problem[] = [];
  for (const { folder, layout } of CANDIDATES) {
    const artifactRoot = path.join(root, folder);
    if (!(await isDirectory(artifactRoot))) continue;
    const real = await fs.realpath(artifactRoot);
    if (!inside(realRoot, real)) {
      problems.push({ file: folder, message: `symlink points outside the project; not followed (target: ${real})` });
      continue;
    }
    return ok({ root, layout, artifactRoot, problems });
  }
  if (await isDirectory(path.join(root, 'features'))) {
    return ok({ root, layout: bareLayout(root), artifactRoot: root, problems });
  }
  const skipped = problems.length > 0 ? ` (${problems.map((p) => `${p.file}: ${p.message}`).join('; ')})` : '';
  return err(
    'not-a-project',
    `${root} has no .baton/, .consort/ or .sftdd/ folder and no features/ folder${skipped}. ` +
      `Run \`baton init ${root}\` to start a Baton project, or open a Consort project folder.`,
  );
};
