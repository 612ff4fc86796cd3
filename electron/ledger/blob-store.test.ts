/** Blobs read from a folder an attacker may write to: links, pipes and a gzip bomb. */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBlobPage, readStoredBlob } from './blob-store';
import { gzipBomb } from './gzip-bomb.fixture';
import { sha256Hex } from './hashing';
import { makeTempLedger, ORCHESTRATOR, removeTemp, type TempLedger } from './temp-ledger.fixture';
import { verifyChain } from './verify-chain';

const MB = 1024 * 1024;

let t: TempLedger;
let blobs: string;
beforeEach(async () => {
  t = await makeTempLedger();
  blobs = path.join(t.dir, 'blobs');
});
afterEach(() => removeTemp(t.root));

const appendBlob = (content: string | Buffer) => t.ledger.append({ type: 'test.recorded', actor: ORCHESTRATOR, blobs: [{ name: 'out', content }] });

describe('readBlobPage', () => {
  it('pages a plain and a gzip’d blob: offset, limit, whether more follows, the total when the end was reached', async () => {
    const text = 'abcdefghij'.repeat(100); // 1000 bytes: stored gzip'd
    const plain = 'short'; // too small to gzip
    const [gz, raw] = [(await appendBlob(text)).blobs[0]!.sha256, (await appendBlob(plain)).blobs[0]!.sha256];
    expect((await fs.readFile(path.join(blobs, gz)))[0]).toBe(0x1f);

    const first = await readBlobPage(blobs, gz, 0, 300);
    expect({ text: first!.bytes.toString(), more: first!.more, total: first!.total }).toEqual({ text: text.slice(0, 300), more: true, total: null });
    const last = await readBlobPage(blobs, gz, 900, 300);
    expect({ text: last!.bytes.toString(), more: last!.more, total: last!.total }).toEqual({ text: text.slice(900), more: false, total: 1000 });
    // A page that ends exactly at the end: nothing more.
    expect(await readBlobPage(blobs, gz, 700, 300)).toMatchObject({ more: false, total: 1000 });
    expect((await readBlobPage(blobs, gz, 5000, 10))!.bytes.length).toBe(0);

    expect(await readBlobPage(blobs, raw, 1, 3)).toEqual({ bytes: Buffer.from('hor'), more: true, total: 5 });
    expect(await readBlobPage(blobs, raw, 0, 10)).toEqual({ bytes: Buffer.from('short'), more: false, total: 5 });
    expect(await readBlobPage(blobs, 'f'.repeat(64), 0, 10)).toBeNull();
    expect(await readBlobPage(blobs, 'not a hash', 0, 10)).toBeNull();
  });

  it('serves a page of a gzip bomb (200 MB of zeros in a few hundred KB) without inflating it whole', async () => {
    const bomb = await gzipBomb(200 * MB);
    expect(bomb.length).toBeLessThan(1 * MB);
    const sha = 'b'.repeat(64); // its name is never checked by a page read; verify would report it
    await fs.mkdir(blobs, { recursive: true });
    await fs.writeFile(path.join(blobs, sha), bomb);
    const before = process.memoryUsage().rss;
    const page = await readBlobPage(blobs, sha, 0, 256 * 1024);
    expect(page!.bytes.length).toBe(256 * 1024);
    expect(page!.more).toBe(true);
    expect(page!.total).toBeNull();
    const deep = await readBlobPage(blobs, sha, 150 * MB, 1024);
    expect(deep!.bytes.equals(Buffer.alloc(1024))).toBe(true);
    // Inflating it whole would add 200 MB at least; a page adds its own size and zlib's buffers.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MB);
  }, 60_000);
});

describe('blobs that are not regular files', () => {
  it('a blob replaced by a symlink to /etc/passwd is refused, never read; verify calls it not a regular file', async () => {
    const record = await appendBlob('the real evidence\n'.repeat(10));
    const sha = record.blobs[0]!.sha256;
    await fs.rm(path.join(blobs, sha));
    await fs.symlink('/etc/passwd', path.join(blobs, sha));
    await expect(readStoredBlob(blobs, sha)).rejects.toMatchObject({ reason: 'symlink' });
    await expect(readBlobPage(blobs, sha, 0, 100)).rejects.toMatchObject({ reason: 'symlink' });
    await expect(t.ledger.readBlob(sha)).rejects.toThrow(/is a symbolic link, not a regular file/);
    const report = await verifyChain(t.dir);
    expect(report.problems).toEqual([
      {
        file: `.baton/ledger/blobs/${sha}`,
        seq: 1,
        message: `blob "out" of record #1 (.baton/ledger/blobs/${sha}) is a symbolic link, not a regular file; not followed — replace the link with the file itself`,
      },
    ]);
  });

  it('a FIFO in blobs/ is refused at once, by reads and by verify', async () => {
    const record = await appendBlob(gzipSync('x'.repeat(100)));
    const sha = record.blobs[0]!.sha256;
    await fs.rm(path.join(blobs, sha));
    try {
      execFileSync('mkfifo', [path.join(blobs, sha)]);
    } catch {
      console.log('skipped the FIFO blob case: mkfifo is not available here');
      return;
    }
    await expect(readStoredBlob(blobs, sha)).rejects.toMatchObject({ reason: 'not-regular' });
    await expect(readBlobPage(blobs, sha, 0, 10)).rejects.toMatchObject({ reason: 'not-regular' });
    const report = await verifyChain(t.dir);
    expect(report.problems.map((p) => p.message)).toEqual([
      `blob "out" of record #1 (.baton/ledger/blobs/${sha}) is a named pipe (FIFO), not a regular file; not read — replace it with a regular file`,
    ]);
  });

  it('a missing blob is still "missing" (null), not an error', async () => {
    expect(await readStoredBlob(blobs, sha256Hex('nothing'))).toBeNull();
  });
});
