#!/usr/bin/env node
// `node --expose-gc bench/blob-bomb.mjs [MB] [--whole|--verify]`: memory while the host serves a gzip
// bomb. Makes a Baton project whose one blob is a small gzip file inflating to MB megabytes of zeros
// (default 500), opens it through the real Workbench and dispatch, asks `ledger:blob` for three
// pages, and prints the process's RSS before and after (and its peak). Goal: under 300 MB.
// --whole reads the blob whole instead (Ledger.readBlob, what `ledger:blob` did before it paged),
// for comparison. --verify makes the record claim the bomb's whole size (rehashed, so the chain
// holds) and runs `ledger:verify` three times instead: verify hashes a large gzip'd blob as it
// inflates. A measurement, not a test (STYLE.md 17).
import { register } from 'tsx/esm/api';
import { summarize } from './summary.mjs';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

register();
const { Workbench } = await import('../electron/core/workbench.ts');
const { createHandlers } = await import('../electron/core/handlers.ts');
const { dispatch } = await import('../electron/core/dispatch.ts');
const { Ledger } = await import('../electron/ledger/index.ts');
const { gzipBomb } = await import('../electron/ledger/gzip-bomb.fixture.ts');
const { recordHash } = await import('../electron/ledger/hashing.ts');
const { minimalFeature, writeTree } = await import('../electron/project/temp-project.fixture.ts');

const mb = Number.parseInt(process.argv.find((a) => /^\d+$/.test(a)) ?? '500', 10);
const whole = process.argv.includes('--whole');
const verifying = process.argv.includes('--verify');
const MB = 1024 * 1024;
const rss = () => `${Math.round(process.memoryUsage().rss / MB)} MB`;
const settle = async () => {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
};

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'baton-bomb-'));
try {
  await writeTree(root, { ...minimalFeature('.baton'), '.baton/project.json': { version: 1, name: 'bomb' } });
  const ledger = Ledger.forArtifactRoot(path.join(root, '.baton'));
  const record = await ledger.append({
    type: 'bench.recorded',
    actor: { kind: 'orchestrator', id: 'baton' },
    blobs: [{ name: 'out.txt', content: 'placeholder' }],
  });
  const sha256 = record.blobs[0].sha256;
  const bomb = await gzipBomb(mb * MB);
  await fs.writeFile(path.join(root, '.baton', 'ledger', 'blobs', sha256), bomb);
  console.log(`gzip bomb: ${(bomb.length / 1024).toFixed(0)} KB on disk, inflating to ${mb} MB`);
  if (verifying) {
    // The record claims the bomb's size: verify must inflate all of it to check the hash.
    const events = path.join(root, '.baton', 'ledger', 'events.jsonl');
    const [line] = (await fs.readFile(events, 'utf8')).split('\n');
    const claimed = JSON.parse(line);
    claimed.blobs[0].bytes = mb * MB;
    await fs.writeFile(events, `${JSON.stringify({ ...claimed, hash: recordHash(claimed) })}\n`);
  }

  const configDir = path.join(root, 'config');
  const handlers = createHandlers(new Workbench({ host: 'browser', version: 'bench', configDir }));
  const opened = await dispatch(handlers, 'project:open', { path: root });
  if (!opened.ok) throw new Error(opened.error.message);
  await settle();
  const before = rss();
  const started = performance.now();
  for (const offset of [0, 256 * 1024, 100 * MB]) {
    if (verifying) {
      const report = await dispatch(handlers, 'ledger:verify', {});
      if (!report.ok) throw new Error(report.error.message);
      console.log(`  verify: ${report.value.problems.length} problem(s): ${report.value.problems[0]?.message.slice(0, 100) ?? 'none'}`);
    } else if (whole) {
      const content = await ledger.readBlob(sha256);
      console.log(`  whole read: ${content.length} bytes`);
    } else {
      const page = await dispatch(handlers, 'ledger:blob', { sha256, offset });
      if (!page.ok) throw new Error(page.error.message);
      console.log(`  page at ${offset}: ${page.value.length} bytes, more: ${page.value.more}`);
    }
  }
  const ms = Math.round(performance.now() - started);
  const after = rss();
  await settle();
  const peakMB = Math.round(process.resourceUsage().maxRSS / 1024);
  const what = verifying ? 'verify' : whole ? 'whole reads' : 'ledger:blob pages';
  summarize('blob-bomb', [{ figure: `peak RSS, ${what} x3 of a ${mb} MB gzip bomb`, value: peakMB, unit: 'MB', goal: '< 300 MB', met: peakMB < 300 }]);
  console.log(
    `${verifying ? 'verify' : whole ? 'whole reads' : 'ledger:blob pages'} x3 of a ${mb} MB bomb: RSS before ${before}, after ${after} (settled ${rss()}), peak ${Math.round(process.resourceUsage().maxRSS / 1024)} MB, ${ms} ms`,
  );
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
