/**
 * `baton dossier` on a real project run to its acceptance gate (the tamper lab's, built once per run
 * and shared: no run of its own): one HTML page with every story, item, cycle and decision of the
 * ledger, each line naming its record; never over an existing file without --force; an unknown
 * feature refused by name; and the same page packed into the review bundle `baton export` writes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { openBundle } from '../ledger';
import { DOSSIER_FILE } from '../ledger/bundle';
import { removeDir } from '../project/temp-project.fixture';
import { baton, BUILD_TIMEOUT, readRecords, TamperLab, type Copy } from './tamper.fixture';

const lab = new TamperLab();
let copy: Copy;
beforeAll(async () => {
  await lab.build();
  copy = await lab.copy();
}, BUILD_TIMEOUT);
afterAll(() => lab.dispose());

/** The timeline line of record `seq`. */
const lineOf = (html: string, seq: number): string => /<li id="record-(\d+)">.*?<\/li>/gs.exec(html.slice(html.indexOf(`<li id="record-${seq}">`)))?.[0] ?? '';

describe('baton dossier', () => {
  it('writes one offline page: every story, item, cycle and decision of the ledger, each line with its record', async () => {
    const out = join(copy.base, 'dossier.html');
    const run = await baton(copy.config, 'dossier', copy.root, '--out', out);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`Wrote ${out}: 1 features`);
    const html = await readFile(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|\ssrc=/);
    const records = await readRecords(copy.root);
    const feature = records.filter((r) => r.subject.feature === 'F-1');
    expect(feature.length).toBeGreaterThan(10);
    for (const r of feature) expect(html).toContain(`<li id="record-${r.seq}">`);
    for (const id of ['S-1', 'T1', 'T2', 'F-1/T1', 'F-1/T2']) expect(html).toContain(id);
    const approvals = records.filter((r) => r.type === RECORD_TYPES.gateApproved);
    expect(approvals.length).toBeGreaterThanOrEqual(3);
    for (const a of approvals) expect(lineOf(html, a.seq)).toMatch(/✓ approved<\/span> Approved the \w+ gate/);
    // T2's Driver rewrote T1's locked test: the violation is in T2's cycle, said as one.
    const violation = records.find((r) => r.type === RECORD_TYPES.cycleViolation)!;
    expect(lineOf(html, violation.seq)).toContain('✗ violation');
    expect(html).toContain('Chain: <span class="verdict good">✓ intact');
  });

  it('refuses to overwrite a file without --force, and replaces it with', async () => {
    const out = join(copy.base, 'mine.html');
    await writeFile(out, 'my notes');
    const refused = await baton(copy.config, 'dossier', copy.root, '--out', out);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${out} already exists: not overwriting it. Give another --out FILE, or --force to replace it.`);
    expect(await readFile(out, 'utf8')).toBe('my notes');
    const forced = await baton(copy.config, 'dossier', copy.root, '--out', out, '--force', '--json');
    expect(forced.code, forced.err).toBe(0);
    expect(JSON.parse(forced.out)).toMatchObject({ ok: true, file: out, features: 1, chain: { ok: true } });
    expect(await readFile(out, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('refuses a feature the project does not have, naming those it has', async () => {
    const run = await baton(copy.config, 'dossier', copy.root, '--feature', 'F-9', '--out', join(copy.base, 'f9.html'));
    expect(run.code).toBe(1);
    expect(run.err).toContain('No feature "F-9"');
    expect(run.err).toContain('Features: F-1');
  });

  it('is packed into the review bundle, and made from a bundle too', async () => {
    const bundle = join(copy.base, 'review.baton');
    const exported = await baton(copy.config, 'export', copy.root, '-o', bundle);
    expect(exported.code, exported.err).toBe(0);
    const opened = await openBundle(bundle);
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      expect(opened.value.manifest.files.map((f) => f.path)).toContain(`.baton/${DOSSIER_FILE}`);
      const packed = await readFile(join(opened.value.root, '.baton', DOSSIER_FILE), 'utf8');
      const records = await readRecords(copy.root);
      for (const r of records.filter((x) => x.subject.feature === 'F-1')) expect(packed).toContain(`<li id="record-${r.seq}">`);
    } finally {
      await removeDir(opened.value.root);
    }
    const fromBundle = await baton(copy.config, 'dossier', bundle, '--out', join(copy.base, 'from-bundle.html'));
    expect(fromBundle.code, fromBundle.err).toBe(0);
  });
});
