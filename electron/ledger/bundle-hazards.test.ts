/** Bundles from someone else: pipes, links and devices inside or in place of the file, and a gzip bomb. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { minimalFeature, writeTree } from '../project/temp-project.fixture';
import { exportBundle } from './bundle';
import { gzipBomb } from './gzip-bomb.fixture';
import { isBundleFile, openBundle } from './open-bundle';
import { readTar, tarEnd, tarFile } from './tar';
import { appendSome, makeTempLedger, removeTemp, type TempLedger } from './temp-ledger.fixture';

let t: TempLedger;
let out: string;
beforeEach(async () => {
  t = await makeTempLedger();
  out = path.join(t.root, 'review.baton');
  await writeTree(t.root, { ...minimalFeature('.baton'), '.baton/project.json': { name: 'shop' } });
  await appendSome(t.ledger, 2);
  const exported = await exportBundle({ artifactRoot: t.artifactRoot, layout: 'baton', projectName: 'shop', out });
  if (!exported.ok) throw new Error(exported.error.message);
});
afterEach(() => removeTemp(t.root));

const leftovers = async () => (await fs.readdir(t.root)).filter((name) => name.startsWith('baton-bundle-'));

/** A tar entry of any type (tarFile writes regular files only), its checksum recomputed. */
const entryOfType = (entryPath: string, typeflag: string): Buffer => {
  const header = tarFile(entryPath, Buffer.alloc(0), new Date(0));
  header.write(typeflag, 156, 'latin1');
  header.fill(0x20, 148, 156);
  const sum = header.subarray(0, 512).reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
};

describe('opening a bundle', () => {
  it.each([
    ['1', 'a hard link'],
    ['3', 'a character device'],
    ['4', 'a block device'],
    ['6', 'a named pipe (FIFO)'],
  ])('refuses a tar entry of type %s (%s), naming it, and unpacks nothing', async (typeflag, kind) => {
    const entries = readTar(gunzipSync(await fs.readFile(out)));
    const tar = Buffer.concat([...entries.map((e) => tarFile(e.path, e.content, new Date(0))), entryOfType('.baton/special', typeflag), tarEnd()]);
    await fs.writeFile(out, gzipSync(tar));
    const opened = await openBundle(out, t.root);
    expect(opened).toMatchObject({ ok: false, error: { code: 'bundle-damaged' } });
    expect(!opened.ok && opened.error.message).toContain(
      `it holds .baton/special, which is a link or special file (${kind}, tar type '${typeflag}'), not a regular file: a bundle carries regular files only`,
    );
    expect(await leftovers()).toEqual([]);
  });

  it('refuses a bundle that inflates past the limit, inflating no further than the limit, and leaves nothing unpacked', async () => {
    // A real bundle whose manifest also lists an 8 MB file of zeros (a few KB gzip'd), that entry appended.
    const [manifest, ...entries] = readTar(gunzipSync(await fs.readFile(out)));
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    const json = JSON.parse(manifest!.content.toString('utf8')) as { files: Array<{ path: string; sha256: string; bytes: number }> };
    json.files.push({ path: '.baton/ledger/blobs/zeros', sha256: createHash('sha256').update(zeros).digest('hex'), bytes: zeros.length });
    const tar = Buffer.concat([
      tarFile(manifest!.path, Buffer.from(JSON.stringify(json)), new Date(0)),
      ...entries.map((e) => tarFile(e.path, e.content, new Date(0))),
      tarFile('.baton/ledger/blobs/zeros', zeros, new Date(0)),
      tarEnd(),
    ]);
    await fs.writeFile(out, gzipSync(tar));
    expect((await fs.stat(out)).size).toBeLessThan(64 * 1024);
    const opened = await openBundle(out, t.root, 1024 * 1024);
    expect(opened).toMatchObject({ ok: false, error: { code: 'bundle-damaged', message: expect.stringContaining('it inflates to more than 1 MB') } });
    expect(await leftovers()).toEqual([]);
    // Under the limit the same bundle opens: the stream, not the limit, is what was refused.
    expect(await openBundle(out, t.root, 16 * 1024 * 1024)).toMatchObject({ ok: true });
  });

  it('refuses a gzip bomb that is not a tar at its first block, without inflating the rest', async () => {
    await fs.writeFile(out, await gzipBomb(64 * 1024 * 1024));
    const before = process.memoryUsage().rss;
    const opened = await openBundle(out, t.root);
    expect(opened).toMatchObject({ ok: false, error: { code: 'bundle-damaged', message: expect.stringContaining('its first entry is not manifest.json') } });
    expect(process.memoryUsage().rss - before).toBeLessThan(32 * 1024 * 1024);
    expect(await leftovers()).toEqual([]);
  });

  it('a FIFO named as the bundle is refused at once, never waited on; a link to a real bundle is followed', async () => {
    const fifo = path.join(t.root, 'pipe.baton');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      console.log('skipped the FIFO bundle case: mkfifo is not available here');
      return;
    }
    const started = Date.now();
    expect(await isBundleFile(fifo)).toBe(false);
    expect(await openBundle(fifo, t.root)).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: expect.stringContaining('is a named pipe (FIFO), not a regular file') },
    });
    expect(await isBundleFile('/dev/zero')).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);

    const link = path.join(t.root, 'link.baton');
    await fs.symlink(out, link);
    expect(await isBundleFile(link)).toBe(true);
  });
});

describe('exporting a bundle', () => {
  it('a blob replaced by a symlink to /etc/passwd is never packed: the export is refused, naming the blob', async () => {
    const blobs = path.join(t.dir, 'blobs');
    const [sha] = await fs.readdir(blobs);
    await fs.rm(path.join(blobs, sha!));
    await fs.symlink('/etc/passwd', path.join(blobs, sha!));
    const exported = await exportBundle({ artifactRoot: t.artifactRoot, layout: 'baton', projectName: 'shop', out: path.join(t.root, 'again.baton') });
    expect(exported).toMatchObject({ ok: false, error: { code: 'ledger-broken', message: expect.stringContaining('is a symbolic link, not a regular file') } });
  });
});
