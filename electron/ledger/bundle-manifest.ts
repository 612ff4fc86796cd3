/**
 * The review bundle's format (`baton export`): ONE gzip'd POSIX ustar file whose first entry is
 * `manifest.json`, followed by `<artifactDir>/…` (the artifact root's files, the ledger's
 * events.jsonl, the blobs its records name, head.sig.json when signed) and, with --attestations,
 * `attestations/<seq>.intoto.json`. The manifest lists every other entry with the SHA-256 and size
 * of its bytes, and carries the chain head and record count.
 */
import { z } from 'zod';
import { LAYOUTS, type Layout } from '../../shared/model';

export const MANIFEST_PATH = 'manifest.json';
export const ATTESTATIONS_DIR = 'attestations';
export const ARTIFACT_DIRS = { baton: '.baton', consort: '.consort', sftdd: '.sftdd' } as const satisfies Record<Layout, string>;

const SHA256 = /^[0-9a-f]{64}$/;

/** Why a bundle entry path may not be extracted, or null when it is a plain relative path. */
export const unsafeEntryPath = (entry: string): string | null => {
  if (entry === '' || entry.includes('\0')) return 'it is empty or holds a NUL byte';
  if (entry.includes('\\')) return 'it holds a backslash';
  if (entry.startsWith('/') || /^[A-Za-z]:/.test(entry)) return 'it is an absolute path';
  const segments = entry.split('/');
  if (segments.includes('..')) return 'it climbs out of the bundle with ..';
  if (segments.some((s) => s === '' || s === '.')) return 'it has an empty or "." path segment';
  return null;
};

const entryPath = z.string().superRefine((value, ctx) => {
  const reason = unsafeEntryPath(value);
  if (reason !== null) ctx.addIssue({ code: 'custom', message: `unsafe path "${value}": ${reason}` });
});

export const BundleManifestSchema = z
  .object({
    format: z.literal('baton-bundle'),
    version: z.literal(1),
    createdAt: z.string(),
    project: z.string(),
    layout: z.enum(LAYOUTS),
    artifactDir: z.enum(['.baton', '.consort', '.sftdd']),
    head: z.string().regex(SHA256).nullable(),
    records: z.number().int().nonnegative(),
    files: z.array(z.object({ path: entryPath, sha256: z.string().regex(SHA256), bytes: z.number().int().nonnegative() })),
  })
  .refine((m) => ARTIFACT_DIRS[m.layout] === m.artifactDir, { message: 'artifactDir does not match layout' });

export type BundleManifest = z.infer<typeof BundleManifestSchema>;
