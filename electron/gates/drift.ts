/** Drift: an approved artifact whose content on disk no longer hashes to what was approved. */
import type { DriftEntry, HashAlgorithm } from '../../shared/ledger';
import { currentHash, readArtifact, rehash, unreadableHash } from './files';

export interface ApprovedArtifact {
  /** Relative to the feature folder, `/`-separated. */
  readonly name: string;
  readonly sha256: string;
  readonly algorithm: HashAlgorithm;
}

/** Re-hashes each approved artifact; a changed, missing or unreadable one is a DriftEntry. */
export const driftOf = async (root: string, featureDir: string | null, approved: readonly ApprovedArtifact[]): Promise<DriftEntry[]> => {
  const entries = await Promise.all(
    approved.map(async (artifact): Promise<DriftEntry | null> => {
      // A feature whose folder is gone has lost every artifact it had approved.
      const file = featureDir === null ? ({ state: 'missing' } as const) : await readArtifact(root, featureDir, artifact.name);
      if (file.state !== 'ok') return { artifact: artifact.name, expected: artifact.sha256, actual: null };
      const actual = rehash(artifact.algorithm, file.bytes);
      return actual === artifact.sha256 ? null : { artifact: artifact.name, expected: artifact.sha256, actual };
    }),
  );
  return entries.filter((entry): entry is DriftEntry => entry !== null);
};

/** Same names, same hashes: what the person approved (or withdrew) is exactly what is there. Own keys only. */
export const sameHashes = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && b[key] === a[key]);
};

/**
 * Files the gate covers now that were not part of its approval (a new AC, a hidden file, a file of
 * any extension under an approved gate's folders: definitions.ts): unapproved content under an
 * approved gate is drift too ("not in the approval"), so the view fails closed.
 */
export const addedSince = async (
  root: string,
  featureDir: string,
  covered: readonly string[],
  approved: readonly ApprovedArtifact[],
): Promise<DriftEntry[]> => {
  const known = new Set(approved.map((a) => a.name));
  const entries = await Promise.all(
    covered
      .filter((name) => !known.has(name))
      .map(async (name): Promise<DriftEntry | null> => {
        const file = await readArtifact(root, featureDir, name);
        if (file.state === 'missing') return null;
        // Too large to read, a symlink out of the project, not a file: still content nobody approved.
        if (file.state === 'unreadable') return { artifact: name, expected: null, actual: await unreadableHash(root, featureDir, name, file.reason) };
        // The hash an approval would record: a `.json` that does not parse still has its text hash,
        // so an added file is never `actual: null` (which would read as missing, and restore keeps no copy of it).
        return { artifact: name, expected: null, actual: currentHash(name, file.bytes, 'baton').sha256 };
      }),
  );
  return entries.filter((entry): entry is DriftEntry => entry !== null);
};

/**
 * Everything that makes an approval no longer describe the disk: approved files changed or gone, and
 * (when the covered list is known, as for every Baton gate) files added since. The view, the
 * approval checks and rejection all judge "unchanged" with this one function.
 */
export const approvalDrift = async (
  root: string,
  featureDir: string | null,
  approved: readonly ApprovedArtifact[],
  covered: readonly string[] | null,
): Promise<DriftEntry[]> => [
  ...(await driftOf(root, featureDir, approved)),
  ...(covered && featureDir !== null ? await addedSince(root, featureDir, covered, approved) : []),
];
