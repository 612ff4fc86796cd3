/**
 * What `applyMigrations` will do for a project: read from `.baton/project.json`'s `migrations`
 * (a plain SQL folder, node-pg-migrate, Knex, or any command), resolved against the folder whose
 * migrations count (the pair's worktree).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { ProjectSettings } from '../../project/settings';
import { BranchError } from '../provider';
import { quoteArg } from '../../process/run-command';

export interface SqlMigrationFile {
  /** The file name, recorded as the version: `2_add_orders.sql`. */
  readonly version: string;
  /** Relative to the project root, with `/`: what messages name. */
  readonly path: string;
  readonly sha256: string;
  readonly sql: string;
}

export type MigrationPlan =
  | { readonly tool: 'none' }
  | { readonly tool: 'sql'; readonly dir: string; readonly files: readonly SqlMigrationFile[] }
  | { readonly tool: 'node-pg-migrate' | 'knex' | 'command'; readonly command: string };

export async function planMigrations(root: string, settings: Pick<ProjectSettings, 'migrations'>): Promise<MigrationPlan> {
  const migrations = settings.migrations;
  if (!migrations) return { tool: 'none' };
  switch (migrations.tool) {
    case 'sql':
      return planSqlFolder(root, migrations.path);
    case 'node-pg-migrate':
      // `--no`: never let npx download a package (or wait on its install prompt) mid-branch.
      return { tool: 'node-pg-migrate', command: `npx --no node-pg-migrate up -m ${quoteArg(migrations.path)}` };
    case 'knex':
      // Knex reads its folder (and DATABASE_URL) from the project's knexfile.
      return { tool: 'knex', command: 'npx --no knex migrate:latest' };
    case 'command':
      if (!migrations.command) {
        throw new BranchError(
          'invalid',
          'Migrations use tool "command" but no command is set: add "command" (it runs with DATABASE_URL) to "migrations" in .baton/project.json.',
        );
      }
      return { tool: 'command', command: migrations.command };
  }
}

async function planSqlFolder(root: string, path: string): Promise<MigrationPlan> {
  const dir = resolve(root, path);
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) {
    throw new BranchError(
      'invalid',
      `The migrations folder "${path}" was not found in ${root}. Create it, or change "migrations" in .baton/project.json (null for none).`,
    );
  }
  const names = (await readdir(dir, { withFileTypes: true }))
    // A `.down.sql` file undoes its migration: applying it would be the opposite of migrating.
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.sql') && !e.name.toLowerCase().endsWith('.down.sql'))
    .map((e) => e.name)
    .sort(naturalCompare);
  const files = await Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name), 'utf8');
      return { version: name, path: relative(root, join(dir, name)).split('\\').join('/'), sha256: createHash('sha256').update(sql).digest('hex'), sql };
    }),
  );
  return { tool: 'sql', dir, files };
}

/** `1_a.sql` < `2_b.sql` < `10_c.sql`: runs of digits compare as numbers, the rest byte by byte. */
export function naturalCompare(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (x === y) continue;
    const numeric = /^\d/.test(x) && /^\d/.test(y);
    if (numeric) {
      const nx = x.replace(/^0+(?=\d)/, '');
      const ny = y.replace(/^0+(?=\d)/, '');
      if (nx.length !== ny.length) return nx.length - ny.length;
      if (nx !== ny) return nx < ny ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  if (pa.length !== pb.length) return pa.length - pb.length;
  // Same up to leading zeros (`01` and `1`): fall back to plain order so the sort is total.
  return a < b ? -1 : a > b ? 1 : 0;
}
