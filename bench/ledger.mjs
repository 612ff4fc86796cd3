#!/usr/bin/env node
// `npm run bench:ledger`: append N records (default 10,000), each with a small blob, into a temp
// ledger, then verify the whole chain. Prints figures; it is a benchmark, not a test (STYLE.md 17).
// Goal (issue 3): verify 10,000 records in under a second on a 2-core machine.
// Usage: node bench/ledger.mjs [records]
import { register } from 'tsx/esm/api';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { summarize } from './summary.mjs';

register();
const { Ledger, verifyChain } = await import('../electron/ledger/index.ts');

const count = Number.parseInt(process.argv[2] ?? '10000', 10);
if (!Number.isInteger(count) || count < 1) {
  console.error('usage: node bench/ledger.mjs [records]  (a whole number above 0)');
  process.exit(2);
}

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'baton-bench-'));
const ledgerDir = path.join(root, '.baton', 'ledger');
const ledger = new Ledger(ledgerDir);
const actor = { kind: 'orchestrator', id: 'baton' };
const perSecond = (n, ms) => Math.round((n / ms) * 1000).toLocaleString('en-US');

try {
  const appendStart = performance.now();
  for (let i = 1; i <= count; i++) {
    await ledger.append({
      type: 'bench.recorded',
      actor,
      subject: { feature: 'F-1', item: `T${i % 50}` },
      data: { i, note: 'a small record with a small blob' },
      blobs: [{ name: 'stdout', content: `run ${i}: ok\n`.repeat(1 + (i % 4)) }],
    });
  }
  const appendMs = performance.now() - appendStart;

  const verifyStart = performance.now();
  const report = await verifyChain(ledgerDir);
  const verifyMs = performance.now() - verifyStart;

  const { size } = await fs.stat(path.join(ledgerDir, 'events.jsonl'));
  console.log(`ledger benchmark: ${count.toLocaleString('en-US')} records, ${os.cpus().length} CPUs, ${os.tmpdir()} (each append fsynced)`);
  console.log(`  append: ${(appendMs / 1000).toFixed(2)} s, ${perSecond(count, appendMs)} appends/s, ${((appendMs / count) * 1000).toFixed(0)} µs per append`);
  console.log(
    `  verify: ${verifyMs.toFixed(0)} ms, ${perSecond(report.records, verifyMs)} records/s (chain ${report.chain.ok ? 'intact' : `BROKEN at #${report.chain.brokenAt}`}, ${report.problems.length} problems)`,
  );
  console.log(`  events.jsonl: ${(size / 1024 / 1024).toFixed(1)} MB`);
  summarize('ledger', [
    { figure: `verify ${count.toLocaleString('en-US')} records`, value: Math.round(verifyMs) / 1000, unit: 's', goal: '< 1 s', met: verifyMs < 1000 },
    { figure: 'append (fsynced)', value: Math.round((count / appendMs) * 1000), unit: 'appends/s' },
  ]);
  if (!report.chain.ok || report.records !== count) process.exitCode = 1;
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
