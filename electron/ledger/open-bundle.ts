/**
 * Opening a review bundle: unpack into a fresh temp folder so that `<root>/<artifactDir>/…` reads
 * like any project. A bundle is untrusted input, so it is checked as it streams, never held whole
 * (a small gzip can claim gigabytes): the manifest first, then each entry's header before a byte of
 * its content is written (regular files only, no links, a relative path that stays inside, listed in
 * the manifest with that size, never twice), its content hashed on its way to disk, and the whole
 * stream refused the moment it inflates past the limit. Anything wrong removes the folder: the
 * caller gets a folder only when every entry matched, none is missing and the ledger's head is the
 * manifest's.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { err, ok, type Result } from '../../shared/result';
import { formatSize, openRegularFile, SafeReadError } from '../platform/safe-read';
import { inflateFrom, isGzip } from './blob-store';
import { BundleManifestSchema, MANIFEST_PATH, unsafeEntryPath, type BundleManifest } from './bundle-manifest';
import { EVENTS_FILE, parseLedger } from './ledger-file';
import { readTarHeader } from './tar';
import { Inflating, TooLarge, Truncated } from './inflating';

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

type Header = { path: string; typeflag: string; size: number };
type Listed = BundleManifest['files'][number];

/** What is wrong with one entry, from its header alone (before its content is read), or null. */
const headerProblem = (manifest: BundleManifest, listed: ReadonlyMap<string, Listed>, seen: ReadonlySet<string>, entry: Header): string | null => {
  const unsafe = unsafeEntryPath(entry.path);
  if (unsafe !== null) return `it holds an entry "${entry.path}" that cannot be unpacked safely: ${unsafe}`;
  if (entry.typeflag === '5') return null; // a folder entry carries nothing; folders are made as needed
  if (entry.typeflag !== '0') {
    const kind = TAR_KINDS[entry.typeflag] ?? 'an entry of an unknown type';
    return `it holds ${entry.path}, which is a link or special file (${kind}, tar type '${entry.typeflag}'), not a regular file: a bundle carries regular files only`;
  }
  const expected = listed.get(entry.path);
  if (!expected) return `it holds ${entry.path}, which its manifest does not list (unsafe or foreign paths are never unpacked)`;
  if (![`${manifest.artifactDir}/`, 'attestations/'].some((prefix) => entry.path.startsWith(prefix)))
    return `${entry.path} lies outside ${manifest.artifactDir}/ and attestations/`;
  if (seen.has(entry.path)) return `it holds ${entry.path} twice`;
  return entry.size === expected.bytes ? null : mismatch(entry.path, expected);
};

const mismatch = (entryPath: string, expected: Listed) =>
  `${entryPath} does not match its manifest (expected ${expected.bytes} bytes with SHA-256 ${expected.sha256.slice(0, 12)}…): it was changed after export`;

/** The records in the unpacked ledger and its head, read a piece at a time. */
async function ledgerHead(file: string): Promise<{ records: number; head: string | null }> {
  const handle = await fs.open(file, 'r');
  let records = 0;
  let head: string | null = null;
  let carry = Buffer.alloc(0);
  let line = 1;
  try {
    for (;;) {
      const chunk = Buffer.alloc(LEDGER_PIECE);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      const data = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const cut = bytesRead === 0 ? data.length : data.lastIndexOf(0x0a) + 1;
      const parsed = parseLedger(data.subarray(0, cut), line);
      for (const entry of parsed.entries)
        if ('record' in entry) {
          records += 1;
          head = entry.record.hash;
        }
      line = parsed.lines + 1;
      carry = data.subarray(cut);
      if (bytesRead === 0) return { records, head };
    }
  } finally {
    await handle.close();
  }
}
const LEDGER_PIECE = 4 * 1024 * 1024;

/** The manifest's head and record count must be the chain's own. */
const headProblem = async (manifest: BundleManifest, root: string): Promise<string | null> => {
  const events = path.join(root, ...manifest.artifactDir.split('/'), 'ledger', EVENTS_FILE);
  const { records, head } = await ledgerHead(events).catch(() => ({ records: 0, head: null }));
  if (head !== manifest.head || records !== manifest.records) {
    return `its manifest says ${manifest.records} records with head ${manifest.head?.slice(0, 12) ?? 'none'}, but the ledger inside has ${records} with head ${head?.slice(0, 12) ?? 'none'}`;
  }
  return null;
};

const damagedBundle = (file: string, why: string) =>
  err('bundle-damaged', `${file} is not a usable review bundle: ${why}. Ask for a fresh export (\`baton export\`).`);

/** Thrown inside the unpacking: the bundle is damaged for this reason. */
class Damaged extends Error {}
const notUnpacking = (why: string) => new Damaged(`it does not unpack (${why}); the file is damaged or truncated`);

/** The manifest, its first entry: read whole (it is small), parsed and held to its schema. */
async function readManifest(tar: Inflating): Promise<BundleManifest> {
  const header = await nextHeader(tar);
  if (!header || header.path !== MANIFEST_PATH || header.typeflag !== '0') throw new Damaged('its first entry is not manifest.json');
  if (header.size > MAX_MANIFEST_BYTES)
    throw new Damaged(`manifest.json is ${formatSize(header.size)}, more than a manifest can be (${formatSize(MAX_MANIFEST_BYTES)})`);
  const content = await tar.take(header.size);
  if (!content) throw notUnpacking(`the archive ends in the middle of ${MANIFEST_PATH} (truncated)`);
  await tar.discard(padding(header.size), MANIFEST_PATH);
  let json: unknown;
  try {
    json = JSON.parse(content.toString('utf8'));
  } catch (error) {
    throw new Damaged(`manifest.json is not valid JSON (${message(error)})`);
  }
  const parsed = BundleManifestSchema.safeParse(json);
  if (!parsed.success) throw new Damaged(`manifest.json is not a Baton bundle manifest:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

const padding = (size: number) => (TAR_HEADER_BYTES - (size % TAR_HEADER_BYTES)) % TAR_HEADER_BYTES;

/** The next entry's header, or null at the end-of-archive block. */
async function nextHeader(tar: Inflating): Promise<Header | null> {
  const block = await tar.take(TAR_HEADER_BYTES);
  if (!block) throw notUnpacking('the archive ends in the middle of an entry header (truncated)');
  try {
    return readTarHeader(block, 0);
  } catch (error) {
    throw notUnpacking(message(error));
  }
}

/** Every entry after the manifest, each checked from its header, written to `root` and hashed as it streams. */
async function unpackEntries(tar: Inflating, manifest: BundleManifest, root: string): Promise<void> {
  const listed = new Map(manifest.files.map((file) => [file.path, file]));
  if (listed.size !== manifest.files.length) throw new Damaged('its manifest lists a file twice');
  const seen = new Set<string>();
  for (let header = await nextHeader(tar); header; header = await nextHeader(tar)) {
    const problem = headerProblem(manifest, listed, seen, header);
    if (problem) throw new Damaged(problem);
    if (header.typeflag === '5') {
      await tar.discard(header.size + padding(header.size), header.path);
      continue;
    }
    seen.add(header.path);
    const target = path.join(root, ...header.path.split('/'));
    await fs.mkdir(path.dirname(target), { recursive: true });
    // 'wx': never write through something already there (the folder is new; this is belt and braces).
    const out = await fs.open(target, 'wx');
    const hash = createHash('sha256');
    try {
      for await (const piece of tar.pieces(header.size, header.path)) {
        hash.update(piece);
        await out.write(piece);
      }
    } finally {
      await out.close();
    }
    if (hash.digest('hex') !== listed.get(header.path)!.sha256) throw new Damaged(mismatch(header.path, listed.get(header.path)!));
    await tar.discard(padding(header.size), header.path);
  }
  const missing = manifest.files.find((file) => !seen.has(file.path));
  if (missing) throw new Damaged(`${missing.path} is listed in its manifest but not in the bundle`);
}

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
  let opened;
  try {
    opened = await openBundleFile(source, maxBytes);
  } catch (error) {
    return err('not-found', `Cannot read the review bundle ${source}: ${error instanceof SafeReadError ? error.detail : message(error)}`);
  }
  const tar = new Inflating(opened.handle, maxBytes);
  let root: string | null = null;
  try {
    const manifest = await readManifest(tar);
    root = await fs.mkdtemp(path.join(tempParent ?? os.tmpdir(), 'baton-bundle-'));
    await unpackEntries(tar, manifest, root);
    const problem = await headProblem(manifest, root);
    if (problem) throw new Damaged(problem);
    return ok({ root, manifest });
  } catch (error) {
    if (root) await fs.rm(root, { recursive: true, force: true });
    if (error instanceof Damaged) return damagedBundle(source, error.message);
    if (error instanceof Truncated) return damagedBundle(source, notUnpacking(error.message).message);
    if (error instanceof TooLarge)
      return damagedBundle(source, `it inflates to more than ${formatSize(maxBytes)}, the most a bundle may hold; it was not unpacked`);
    if ((error as { code?: unknown }).code?.toString().startsWith('Z_'))
      return damagedBundle(source, `it does not unpack (${message(error)}); the file is damaged or truncated`);
    return err('bundle-damaged', `Could not unpack ${source} into ${root}: ${message(error)}`);
  } finally {
    tar.close();
    await opened.handle.close();
  }
};
