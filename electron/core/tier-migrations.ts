/**
 * `baton verify`'s offline check of tier databases against the code: every SQL migration a
 * `promote.done` record says was applied to a tier must still be in the code, byte for byte. One
 * that is gone or edited means the tier's database is ahead of (or apart from) the code — a pull
 * request that deletes or rewrites an applied migration fails here, with no database at hand.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LedgerRecord, VerifyProblem } from '../../shared/ledger';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import { readSettings } from '../project/read-settings';

export async function tierMigrationProblems(root: string, artifactRoot: string, records: readonly LedgerRecord[]): Promise<VerifyProblem[]> {
  const promoted = recordsOf(records, RECORD_TYPES.promoteDone);
  if (!promoted.length) return [];
  const read = await readSettings(artifactRoot);
  const migrations = read.ok ? read.value.settings.migrations : null;
  if (!migrations || migrations.tool !== 'sql') return [];
  const problems: VerifyProblem[] = [];
  const seen = new Set<string>();
  for (const record of [...promoted].reverse()) {
    const hashes = new Map(Object.entries(record.data.migrationHashes ?? {}));
    for (const version of record.data.applied) {
      if (seen.has(version)) continue;
      seen.add(version);
      const file = `${migrations.path}/${version}`;
      const bytes = await readFile(join(root, file)).catch(() => null);
      const where = `promote.done #${record.seq} applied ${version} to the ${record.data.tier} database`;
      if (!bytes)
        problems.push({
          file,
          seq: record.seq,
          message: `${where}, but the code has no such file: the database is ahead of the code. Restore the file as it was promoted (commit ${record.data.mergeCommit.slice(0, 12)}).`,
        });
      else if (hashes.has(version) && createHash('sha256').update(bytes).digest('hex') !== hashes.get(version))
        problems.push({
          file,
          seq: record.seq,
          message: `${where}, and the file has changed since: an applied migration must stay as it was. Restore it and put the change in a new migration.`,
        });
    }
  }
  return problems;
}
