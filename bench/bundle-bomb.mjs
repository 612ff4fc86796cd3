// `node bench/bundle-bomb.mjs [MB]`: peak memory while Baton opens a review bundle that is a
// gzip bomb. Makes a bundle (a few hundred KB on disk) whose manifest lists one file of MB megabytes
// of zeros (default 900, under the 1 GiB a bundle may inflate to, so it is unpacked and hashed in
// full), then one that claims twice the limit (refused at the limit), opens each with the bundle
// reader `baton open` uses, and prints the process's peak RSS. Goal: under 300 MB for any bundle.
// A measurement, not a test (STYLE.md 17).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { register } from 'tsx/esm/api';
import { summarize } from './summary.mjs';

register();
const { openBundle, MAX_BUNDLE_BYTES } = await import('../electron/ledger/open-bundle.ts');
const { tarFile, tarEnd } = await import('../electron/ledger/tar.ts');

const mb = Number(process.argv[2] ?? 900);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-bundle-bomb-'));
const MIB = 1024 * 1024;

/** A bundle whose one file is `bytes` of zeros, streamed through gzip (never held whole here either). */
async function bomb(name, bytes) {
  const zeros = Buffer.alloc(MIB);
  const hash = createHash('sha256');
  for (let left = bytes; left > 0; left -= MIB) hash.update(left >= MIB ? zeros : zeros.subarray(0, left));
  const file = '.baton/ledger/blobs/zeros';
  const manifest = {
    format: 'baton-bundle',
    version: 1,
    createdAt: new Date(0).toISOString(),
    project: 'bomb',
    layout: 'baton',
    artifactDir: '.baton',
    head: null,
    records: 0,
    files: [{ path: file, sha256: hash.digest('hex'), bytes }],
  };
  const header = tarFile(file, Buffer.alloc(0), new Date(0)).subarray(0, 512);
  // The header of an empty file, its size field rewritten to `bytes` and its checksum recomputed.
  header.write(`${bytes.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  header.fill(0x20, 148, 156);
  header.write(
    `${header
      .reduce((t, b) => t + b, 0)
      .toString(8)
      .padStart(6, '0')}\0 `,
    148,
    'latin1',
  );
  async function* tar() {
    yield tarFile('manifest.json', Buffer.from(JSON.stringify(manifest)), new Date(0));
    yield header;
    for (let left = bytes; left > 0; left -= MIB) yield left >= MIB ? zeros : zeros.subarray(0, left);
    yield Buffer.alloc((512 - (bytes % 512)) % 512);
    yield tarEnd();
  }
  const out = path.join(scratch, name);
  await pipeline(Readable.from(tar()), createGzip(), createWriteStream(out));
  return out;
}

const rss = () => Math.round(process.memoryUsage().rss / MIB);
const results = [];
try {
  for (const [name, bytes] of [
    ['fits.baton', mb * MIB],
    ['over.baton', 2 * MAX_BUNDLE_BYTES],
  ]) {
    const file = await bomb(name, bytes);
    const before = rss();
    const started = performance.now();
    const opened = await openBundle(file, scratch);
    results.push({
      bundle: name,
      onDiskKB: Math.round((await import('node:fs')).statSync(file).size / 1024),
      claimsMB: Math.round(bytes / MIB),
      opened: opened.ok,
      why: opened.ok ? null : opened.error.message.replace(/^.*?: /, '').slice(0, 120),
      seconds: Math.round(performance.now() - started) / 1000,
      rssBeforeMB: before,
      rssAfterMB: rss(),
    });
    if (opened.ok) rmSync(opened.value.root, { recursive: true, force: true });
    rmSync(file, { force: true });
  }
  const peakMB = Math.round(process.resourceUsage().maxRSS / 1024);
  summarize('bundle-bomb', [{ figure: `peak RSS opening a ${mb} MB bundle bomb`, value: peakMB, unit: 'MB', goal: '< 300 MB', met: peakMB < 300 }]);
  console.log(JSON.stringify({ results, peakRssMB: peakMB, goalMB: 300, met: peakMB < 300 }, null, 2));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
