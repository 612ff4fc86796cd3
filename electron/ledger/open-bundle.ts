/**
 * Opening a review bundle: unpack into a fresh temp folder so that `<root>/<artifactDir>/…` reads
 * like any project. A bundle is untrusted input, so nothing is written until every entry has been
 * checked: regular files only (no links), relative paths that stay inside, each listed in the
 * manifest with the same SHA-256 and size, none missing, and the ledger's head as the manifest says.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { err, ok, type Result } from '../../shared/result';
import { isGzip } from './blob-store';
import { BundleManifestSchema, MANIFEST_PATH, unsafeEntryPath, type BundleManifest } from './bundle-manifest';
import { sha256Hex } from './hashing';
import { EVENTS_FILE, parseLedger } from './ledger-file';
import { readTar, readTarHeader, type TarEntry } from './tar';

/** Refuse to unpack more than this: a small gzip can claim gigabytes. */
export const MAX_BUNDLE_BYTES = 1024 * 1024 * 1024;
const PEEK_BYTES = 64 * 1024;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A gzip file whose first tar entry is `manifest.json`. Never throws. */
export const isBundleFile = async (file: string): Promise<boolean> => {
  try {
    const handle = await fs.open(file, 'r');
    try {
      if (!(await handle.stat()).isFile()) return false;
      const head = Buffer.alloc(PEEK_BYTES);
      const { bytesRead } = await handle.read(head, 0, PEEK_BYTES, 0);
      const start = head.subarray(0, bytesRead);
      if (!isGzip(start)) return false;
      // A sync flush lets zlib hand back what the first bytes hold without the rest of the file.
      const unpacked = gunzipSync(start, { finishFlush: constants.Z_SYNC_FLUSH });
      return readTarHeader(unpacked, 0)?.path === MANIFEST_PATH;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
};

/** What is wrong with the entries against the manifest, or null when they match exactly. */
const entriesProblem = (manifest: BundleManifest, entries: readonly TarEntry[]): string | null => {
  const listed = new Map(manifest.files.map((file) => [file.path, file]));
  if (listed.size !== manifest.files.length) return 'its manifest lists a file twice';
  const prefixes = [`${manifest.artifactDir}/`, 'attestations/'];
  const seen = new Set<string>();
  for (const entry of entries) {
    const unsafe = unsafeEntryPath(entry.path);
    if (unsafe !== null) return `it holds an entry "${entry.path}" that cannot be unpacked safely: ${unsafe}`;
    if (entry.typeflag === '5') continue; // a folder entry carries nothing; folders are made as needed
    if (entry.typeflag !== '0') return `it holds ${entry.path}, which is a link or special file (type '${entry.typeflag}'), not a regular file`;
    const expected = listed.get(entry.path);
    if (!expected) return `it holds ${entry.path}, which its manifest does not list (unsafe or foreign paths are never unpacked)`;
    if (!prefixes.some((prefix) => entry.path.startsWith(prefix))) return `${entry.path} lies outside ${manifest.artifactDir}/ and attestations/`;
    if (seen.has(entry.path)) return `it holds ${entry.path} twice`;
    seen.add(entry.path);
    if (entry.content.length !== expected.bytes || sha256Hex(entry.content) !== expected.sha256) {
      return `${entry.path} does not match its manifest (expected ${expected.bytes} bytes with SHA-256 ${expected.sha256.slice(0, 12)}…): it was changed after export`;
    }
  }
  const missing = manifest.files.find((file) => !seen.has(file.path));
  return missing ? `${missing.path} is listed in its manifest but not in the bundle` : null;
};

/** The manifest's head and record count must be the chain's own. */
const headProblem = (manifest: BundleManifest, entries: readonly TarEntry[]): string | null => {
  const events = entries.find((entry) => entry.path === `${manifest.artifactDir}/ledger/${EVENTS_FILE}`);
  const records = events ? parseLedger(events.content).entries.filter((entry) => 'record' in entry) : [];
  const last = records.at(-1);
  const head = last && 'record' in last ? last.record.hash : null;
  if (head !== manifest.head || records.length !== manifest.records) {
    return `its manifest says ${manifest.records} records with head ${manifest.head?.slice(0, 12) ?? 'none'}, but the ledger inside has ${records.length} with head ${head?.slice(0, 12) ?? 'none'}`;
  }
  return null;
};

const unpack = (file: string, data: Buffer): Result<{ manifest: BundleManifest; entries: TarEntry[] }> => {
  const damaged = (why: string) => err('bundle-damaged', `${file} is not a usable review bundle: ${why}. Ask for a fresh export (\`baton export\`).`);
  let entries: TarEntry[];
  try {
    entries = readTar(gunzipSync(data, { maxOutputLength: MAX_BUNDLE_BYTES }));
  } catch (error) {
    return damaged(`it does not unpack (${message(error)}); the file is damaged or truncated`);
  }
  const [first, ...rest] = entries;
  if (!first || first.path !== MANIFEST_PATH || first.typeflag !== '0') return damaged('its first entry is not manifest.json');
  let json: unknown;
  try {
    json = JSON.parse(first.content.toString('utf8'));
  } catch (error) {
    return damaged(`manifest.json is not valid JSON (${message(error)})`);
  }
  const parsed = BundleManifestSchema.safeParse(json);
  if (!parsed.success) return damaged(`manifest.json is not a Baton bundle manifest:\n${z.prettifyError(parsed.error)}`);
  const problem = entriesProblem(parsed.data, rest) ?? headProblem(parsed.data, rest);
  return problem ? damaged(problem) : ok({ manifest: parsed.data, entries: rest });
};

/** Unpacks `file` into a new folder under `tempParent` (default: the OS temp folder). The caller removes `root`. */
export const openBundle = async (file: string, tempParent?: string): Promise<Result<{ root: string; manifest: BundleManifest }>> => {
  const source = path.resolve(file);
  let data: Buffer;
  try {
    data = await fs.readFile(source);
  } catch (error) {
    return err('not-found', `Cannot read the review bundle ${source}: ${message(error)}`);
  }
  const unpacked = unpack(source, data);
  if (!unpacked.ok) return unpacked;
  const { manifest, entries } = unpacked.value;
  const root = await fs.mkdtemp(path.join(tempParent ?? os.tmpdir(), 'baton-bundle-'));
  try {
    for (const entry of entries) {
      if (entry.typeflag !== '0') continue;
      const target = path.join(root, ...entry.path.split('/'));
      await fs.mkdir(path.dirname(target), { recursive: true });
      // 'wx': never write through something already there (the folder is new; this is belt and braces).
      await fs.writeFile(target, entry.content, { flag: 'wx' });
    }
  } catch (error) {
    await fs.rm(root, { recursive: true, force: true });
    return err('bundle-damaged', `Could not unpack ${source} into ${root}: ${message(error)}`);
  }
  return ok({ root, manifest });
};
