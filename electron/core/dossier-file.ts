/**
 * The story dossier as a file (issue 35, part 7): the page shared/dossier-html.ts renders from the
 * ledger's records and the project's features, written where `baton dossier` is told, and packed
 * into review bundles by `baton export`. An existing file is never overwritten unless asked.
 */
import { promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import { projectDossier, type DossierOutline } from '../../shared/dossier';
import { dossierHtml, type DossierPageInfo } from '../../shared/dossier-html';
import type { LedgerRecord } from '../../shared/ledger';
import { err, ok, type Result } from '../../shared/result';
import { writeFileAtomic } from '../platform/atomic-write';
import { isMissing } from '../platform/fs-facts';

/** The page of these features (every one of the project's, or the one asked for). */
export const dossierPage = (project: string, records: readonly LedgerRecord[], features: readonly DossierOutline[], info: DossierPageInfo): string =>
  dossierHtml(projectDossier(project, records, features), info);

/** A bundle's page: `baton export` packs only a ledger whose chain verified, so it says intact. */
export const dossierInfo = (records: readonly LedgerRecord[], head: string | null, now = new Date()): DossierPageInfo => ({
  generatedAt: now.toISOString(),
  head,
  records: records.length,
  chain: { ok: true },
});

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Writes the page to `out` (atomically); refuses a file already there unless `force`. */
export async function writeDossier(out: string, html: string, force: boolean): Promise<Result<{ file: string; bytes: number }>> {
  const file = resolve(out);
  if (!force) {
    try {
      await fs.lstat(file);
      return err('exists', `${file} already exists: not overwriting it. Give another --out FILE, or --force to replace it.`);
    } catch (error) {
      if (!isMissing(error)) return err('failed', `Could not check ${file}: ${message(error)}`);
    }
  }
  try {
    await writeFileAtomic(file, html);
    return ok({ file, bytes: Buffer.byteLength(html) });
  } catch (error) {
    return err('failed', `Could not write the dossier ${file}: ${message(error)}. Check that its folder exists and can be written.`);
  }
}
