/**
 * Opening a review bundle: unpack into a fresh temp folder so that `<root>/<artifactDir>/…` reads
 * like any project. A bundle is untrusted input, so nothing is written until every entry has been
 * checked: regular files only (no links), relative paths that stay inside, each listed in the
 * manifest with the same SHA-256 and size, none missing, and the ledger's head as the manifest says.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { err, ok, type Result } from '../../shared/result';
import { formatSize, openRegularFile, SafeReadError } from '../platform/safe-read';
import { inflateFrom, isGzip } from './blob-store';
import { BundleManifestSchema, MANIFEST_PATH, unsafeEntryPath, type BundleManifest } from './bundle-manifest';
import { sha256Hex } from './hashing';
import { EVENTS_FILE, parseLedger } from './ledger-file';
import { readTar, readTarHeader, type TarEntry } from './tar';

/** Refuse to unpack more than this: a small gzip can claim gigabytes. (The .baton file itself is held to it too.) */
export const MAX_BUNDLE_BYTES = 1024 * 1024 * 1024;
const TAR_HEADER_BYTES = 512;

/** What each tar entry type other than a file or a folder is, for the refusal. */
const TAR_KINDS: Readonly<Record<string, string>> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a named pipe (FIFO)',
  '7': 'a contiguous file',
  x: 'a pax extended header',
  g: 'a pax global header',
  L: 'a GNU long name',
  K: 'a GNU long link name',
};

/**
 * The bundle file a person named, opened only if it is a regular file (a link to it is followed:
 * they chose it; a FIFO or a device in its place is refused at once, never waited on).
 */
const openBundleFile = async (file: string, maxBytes: number) => openRegularFile(await fs.realpath(file), { maxBytes });

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A gzip file whose first tar entry is `manifest.json`. Never throws. */
export const isBundleFile = async (file: string): Promise<boolean> => {
  try {
    const { handle } = await openBundleFile(file, Number.MAX_SAFE_INTEGER);
    try {
      const magic = Buffer.alloc(2);
      const { bytesRead } = await handle.read(magic, 0, 2, 0);
      if (!isGzip(magic.subarray(0, bytesRead))) return false;
      // Inflates only as far as the first tar header, however large the file (or what it inflates to).
      const head = await inflateFrom(handle, 0, TAR_HEADER_BYTES);
      return readTarHeader(head.bytes, 0)?.path === MANIFEST_PATH;
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
    if (entry.typeflag !== '0') {
      const kind = TAR_KINDS[entry.typeflag] ?? 'an entry of an unknown type';
      return `it holds ${entry.path}, which is a link or special file (${kind}, tar type '${entry.typeflag}'), not a regular file: a bundle carries regular files only`;
    }
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

const damagedBundle = (file: string, why: string) =>
  err('bundle-damaged', `${file} is not a usable review bundle: ${why}. Ask for a fresh export (\`baton export\`).`);

/** The bundle's tar, inflated as a stream and refused as soon as it passes MAX_BUNDLE_BYTES (a gzip bomb). */
const inflateBundle = async (source: string, maxBytes: number): Promise<Result<Buffer>> => {
  let opened;
  try {
    opened = await openBundleFile(source, maxBytes);
  } catch (error) {
    return err('not-found', `Cannot read the review bundle ${source}: ${error instanceof SafeReadError ? error.detail : message(error)}`);
  }
  try {
    const tar = await inflateFrom(opened.handle, 0, maxBytes);
    if (tar.more) return damagedBundle(source, `it inflates to more than ${formatSize(maxBytes)}, the most a bundle may hold; it was not unpacked`);
    return ok(tar.bytes);
  } catch (error) {
    return damagedBundle(source, `it does not unpack (${message(error)}); the file is damaged or truncated`);
  } finally {
    await opened.handle.close();
  }
};

const unpack = (file: string, data: Buffer): Result<{ manifest: BundleManifest; entries: TarEntry[] }> => {
  const damaged = (why: string) => damagedBundle(file, why);
  let entries: TarEntry[];
  try {
    entries = readTar(data);
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

/**
 * Unpacks `file` into a new folder under `tempParent` (default: the OS temp folder). The caller
 * removes `root`. `maxBytes` (default MAX_BUNDLE_BYTES) bounds the file and what it inflates to.
 */
export const openBundle = async (
  file: string,
  tempParent?: string,
  maxBytes = MAX_BUNDLE_BYTES,
): Promise<Result<{ root: string; manifest: BundleManifest }>> => {
  const source = path.resolve(file);
  const data = await inflateBundle(source, maxBytes);
  if (!data.ok) return data;
  const unpacked = unpack(source, data.value);
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
