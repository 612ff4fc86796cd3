/**
 * `baton export`: writes one review bundle (format in bundle-manifest.ts). The ledger is read once
 * and those exact bytes are both verified and packed, so a record appended meanwhile cannot slip
 * into a bundle unverified. Only blobs that records name are packed: an unreferenced blob is what a
 * crash between blob and record leaves behind, not evidence. `state/` (machine snapshots) and the
 * lock file stay behind.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { LedgerRecord } from '../../shared/ledger';
import type { Layout } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import { greenAttestationsWithSeq } from './attestations';
import { writeFileAtomic } from '../platform/atomic-write';
import { isMissing } from '../platform/fs-facts';
import { readRegularFile } from '../platform/safe-read';
import { MAX_STORED_BLOB_BYTES } from './blob-store';
import { ARTIFACT_DIRS, ATTESTATIONS_DIR, MANIFEST_PATH, type BundleManifest } from './bundle-manifest';
import { sha256Hex } from './hashing';
import { MAX_BUNDLE_BYTES } from './open-bundle';
import { BLOBS_DIR, displayPath, EVENTS_FILE, SIGNATURE_FILE } from './ledger-file';
import { checkSignature, CHECKPOINTS_FILE, signHead } from './signing';
import { tarEnd, tarFile } from './tar';
import { verifyLedgerBytes } from './verify-chain';

export interface ExportOptions {
  readonly artifactRoot: string;
  readonly layout: Layout;
  readonly projectName: string;
  readonly out: string;
  readonly attestations?: boolean;
  readonly signConfigDir?: string;
  /**
   * The story dossier's page (core/dossier-file.ts) of the very records packed, written as
   * `<artifactDir>/dossier.html` so a reviewer can read the bundle without Baton; absent: none.
   */
  readonly dossier?: (records: readonly LedgerRecord[], head: string | null) => string;
}

/** The dossier's page in a bundle, under its artifact folder (so a reader that knows nothing of it still opens the bundle). */
export const DOSSIER_FILE = 'dossier.html';

export interface ExportSummary {
  readonly file: string;
  readonly records: number;
  readonly head: string | null;
  readonly files: number;
  readonly attestations: number;
  readonly signed: boolean;
}

/** Top-level folders of an artifact root that are not evidence (or are packed separately). */
const SKIPPED_TOP = new Set(['state', 'ledger', '.git', 'node_modules', DOSSIER_FILE]);

interface PackedFile {
  readonly path: string;
  readonly content: Buffer;
}

/** Regular files under `dir` (symlinks are not followed: a bundle holds only what is really here). */
const walk = async (dir: string, rel: string, out: PackedFile[], prefix: string, skip: string): Promise<void> => {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (rel === '' && SKIPPED_TOP.has(entry.name)) continue;
    const abs = path.join(dir, entry.name);
    if (abs === skip) continue; // an earlier bundle written into the artifact root is not evidence
    if (entry.isDirectory()) await walk(abs, childRel, out, prefix, skip);
    else if (entry.isFile()) out.push({ path: `${prefix}/${childRel}`, content: await readRegularFile(abs, { maxBytes: MAX_BUNDLE_BYTES }) });
  }
};

// Every file packed is read as a regular file only (a link, FIFO or device swapped in is refused, never followed or waited on).
const readOptional = (file: string): Promise<Buffer | null> =>
  readRegularFile(file, { maxBytes: MAX_BUNDLE_BYTES }).catch((error: unknown) => (isMissing(error) ? null : Promise.reject(error)));

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const exportBundle = async (opts: ExportOptions): Promise<Result<ExportSummary>> => {
  const root = path.resolve(opts.artifactRoot);
  const out = path.resolve(opts.out);
  const artifactDir = ARTIFACT_DIRS[opts.layout];
  const ledgerDir = path.join(root, 'ledger');
  try {
    if (opts.signConfigDir !== undefined) await signHead(ledgerDir, opts.signConfigDir);
    const events = await readOptional(path.join(ledgerDir, EVENTS_FILE));
    const files: PackedFile[] = [];
    await walk(root, '', files, artifactDir, out);

    let records = 0;
    let head: string | null = null;
    let signed = false;
    const statements: PackedFile[] = [];
    if (events !== null) {
      const displayRoot = path.dirname(root);
      const report = await verifyLedgerBytes(events, path.join(ledgerDir, BLOBS_DIR), {
        events: displayPath(ledgerDir, displayRoot, EVENTS_FILE),
        blob: (sha) => displayPath(ledgerDir, displayRoot, BLOBS_DIR, sha),
      });
      if (!report.chain.ok) {
        const first = report.problems[0];
        return err(
          'ledger-broken',
          `Not exporting: the ledger is broken at record #${report.chain.brokenAt}` +
            `${first ? ` (${first.file}: ${first.message})` : ''}. A bundle must carry intact evidence; run \`baton verify\` to see every problem.`,
        );
      }
      records = report.records;
      head = report.head;
      files.push({ path: `${artifactDir}/ledger/${EVENTS_FILE}`, content: events });
      const shas = new Set(report.recordList.flatMap((record) => record.blobs.map((blob) => blob.sha256)));
      for (const sha of [...shas].sort()) {
        files.push({
          path: `${artifactDir}/ledger/${BLOBS_DIR}/${sha}`,
          content: await readRegularFile(path.join(ledgerDir, BLOBS_DIR, sha), { maxBytes: MAX_STORED_BLOB_BYTES }),
        });
      }
      // The signed checkpoints travel with the ledger (and an older head.sig.json, read as one more).
      const check = await checkSignature(ledgerDir, report.recordList);
      if (check.state === 'invalid') {
        return err('signature-invalid', `Not exporting: a signed checkpoint does not verify: ${check.message}. Run \`baton verify\` to see every problem.`);
      }
      signed = check.state === 'signed';
      for (const name of [SIGNATURE_FILE, CHECKPOINTS_FILE]) {
        const content = await readOptional(path.join(ledgerDir, name));
        if (content !== null) files.push({ path: `${artifactDir}/ledger/${name}`, content });
      }
      if (opts.dossier) files.push({ path: `${artifactDir}/${DOSSIER_FILE}`, content: Buffer.from(opts.dossier(report.recordList, head)) });
      if (opts.attestations) {
        for (const { seq, statement } of greenAttestationsWithSeq(report.recordList)) {
          statements.push({ path: `${ATTESTATIONS_DIR}/${seq}.intoto.json`, content: Buffer.from(`${JSON.stringify(statement, null, 2)}\n`) });
        }
      }
    }
    files.push(...statements);

    const createdAt = new Date();
    const manifest: BundleManifest = {
      format: 'baton-bundle',
      version: 1,
      createdAt: createdAt.toISOString(),
      project: opts.projectName,
      layout: opts.layout,
      artifactDir,
      head,
      records,
      files: files.map((file) => ({ path: file.path, sha256: sha256Hex(file.content), bytes: file.content.length })),
    };
    const tar = Buffer.concat([
      tarFile(MANIFEST_PATH, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), createdAt),
      ...files.map((file) => tarFile(file.path, file.content, createdAt)),
      tarEnd(),
    ]);
    await writeFileAtomic(out, gzipSync(tar));
    return ok({ file: out, records, head, files: files.length, attestations: statements.length, signed });
  } catch (error) {
    return err('export-failed', `Could not write the review bundle ${out}: ${message(error)}`);
  }
};
