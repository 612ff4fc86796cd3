import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { readProject } from '../project';
import { minimalFeature, writeTree } from '../project/temp-project.fixture';
import { greenAttestations } from './attestations';
import { exportBundle } from './bundle';
import { isBundleFile, openBundle } from './open-bundle';
import { checkSignature } from './signing';
import { readTar, tarEnd, tarFile, type TarEntry } from './tar';
import { appendSome, makeTempLedger, ORCHESTRATOR, readLines, removeTemp, writeLines, type TempLedger } from './temp-ledger.fixture';
import { verifyChain } from './verify-chain';

const CONSORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/fixtures/consort-shop');
const COMMIT = 'd20ace7968ba43c0219f62d71334c1095bab1602';

let t: TempLedger;
let out: string;
const opened: string[] = [];
beforeEach(async () => {
  t = await makeTempLedger();
  out = path.join(t.root, 'review.baton');
  await writeTree(t.root, { ...minimalFeature('.baton'), '.baton/project.json': { name: 'shop' }, '.baton/state/machine.json': { secret: 'no' } });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((dir) => removeTemp(dir)));
  await removeTemp(t.root);
});

const open = async (file = out) => {
  const result = await openBundle(file, t.root);
  if (result.ok) opened.push(result.value.root);
  return result;
};

const exportBaton = (extra: Partial<Parameters<typeof exportBundle>[0]> = {}) =>
  exportBundle({ artifactRoot: t.artifactRoot, layout: 'baton', projectName: 'shop', out, ...extra });

/** Rewrites the bundle's tar entries (after the manifest, unless `keepManifest` is false). */
const rewrite = async (change: (entries: TarEntry[]) => TarEntry[]) => {
  const entries = change(readTar(gunzipSync(await fs.readFile(out))));
  const tar = Buffer.concat([...entries.map((e) => tarFile(e.path, e.content, new Date(0))), tarEnd()]);
  await fs.writeFile(out, gzipSync(tar));
};

describe('exportBundle and openBundle', () => {
  it('round-trips a Baton project: same features, same chain, no state/ and no lock', async () => {
    const records = await appendSome(t.ledger, 4);
    await fs.writeFile(path.join(t.dir, '.lock'), '{}');
    const result = await exportBaton();
    expect(result).toEqual({ ok: true, value: { file: out, records: 4, head: records[3]!.hash, files: expect.any(Number), attestations: 0, signed: false } });
    expect(await isBundleFile(out)).toBe(true);

    const bundle = await open();
    if (!bundle.ok) throw new Error(bundle.error.message);
    const { root, manifest } = bundle.value;
    expect(path.dirname(root)).toBe(t.root);
    expect(manifest).toMatchObject({
      format: 'baton-bundle',
      version: 1,
      project: 'shop',
      layout: 'baton',
      artifactDir: '.baton',
      head: records[3]!.hash,
      records: 4,
    });
    expect(manifest.files.map((f) => f.path)).toContain('.baton/ledger/events.jsonl');
    expect(manifest.files.some((f) => f.path.includes('state/') || f.path.endsWith('.lock'))).toBe(false);
    expect(manifest.files.filter((f) => f.path.includes('/blobs/'))).toHaveLength(2);

    const [original, copy] = await Promise.all([readProject(t.root), readProject(root)]);
    if (!original.ok || !copy.ok) throw new Error('unreadable');
    expect(copy.value.features).toEqual(original.value.features);
    expect(copy.value.features).toHaveLength(1);
    expect(await verifyChain(path.join(root, '.baton', 'ledger'))).toMatchObject({ records: 4, head: records[3]!.hash, chain: { ok: true } });
  });

  it('round-trips a Consort project read-only, with the same features and gates', async () => {
    const result = await exportBundle({ artifactRoot: path.join(CONSORT, '.consort'), layout: 'consort', projectName: 'consort-shop', out });
    expect(result).toMatchObject({ ok: true, value: { records: 0, head: null } });
    const bundle = await open();
    if (!bundle.ok) throw new Error(bundle.error.message);
    const [original, copy] = await Promise.all([readProject(CONSORT), readProject(bundle.value.root)]);
    if (!original.ok || !copy.ok) throw new Error('unreadable');
    expect(copy.value.layout).toBe('consort');
    expect(copy.value.features).toEqual(original.value.features);
  });

  it('writes an in-toto statement per cycle.greened record and signs the head when asked', async () => {
    await appendSome(t.ledger, 1);
    const green = await t.ledger.append({
      type: RECORD_TYPES.cycleGreened,
      actor: ORCHESTRATOR,
      subject: { feature: 'F-1', item: 'T1' },
      data: {
        key: 'greened',
        commit: COMMIT,
        verdict: 'f'.repeat(64),
        command: 'npm test',
        passedTests: ['T1 adds to cart'],
        branch: 'baton/F-1',
        tree: 'e'.repeat(40),
      },
    });
    const result = await exportBaton({ attestations: true, signConfigDir: path.join(t.root, 'config') });
    expect(result).toMatchObject({ ok: true, value: { attestations: 1, signed: true } });
    const bundle = await open();
    if (!bundle.ok) throw new Error(bundle.error.message);
    const statement = JSON.parse(await fs.readFile(path.join(bundle.value.root, 'attestations', `${green.seq}.intoto.json`), 'utf8')) as unknown;
    expect(statement).toEqual(greenAttestations([green])[0]);
    const extracted = path.join(bundle.value.root, '.baton', 'ledger');
    const { records } = await verifyChain(extracted);
    expect(records).toBe(2);
    expect(await checkSignature(extracted, [green])).toMatchObject({ state: 'signed', seq: 2 });
  });

  it('refuses to export a broken chain, saying where, and writes nothing', async () => {
    await appendSome(t.ledger, 3);
    const lines = await readLines(t.events);
    await writeLines(t.events, [lines[0]!, lines[2]!]);
    const result = await exportBaton();
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'ledger-broken',
        message: expect.stringMatching(/^Not exporting: the ledger is broken at record #3 \(\.baton\/ledger\/events\.jsonl: record #3/),
      },
    });
    await expect(fs.stat(out)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a bundle with a damaged byte', async () => {
    await appendSome(t.ledger, 2);
    await exportBaton();
    const bytes = await fs.readFile(out);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    await fs.writeFile(out, bytes);
    expect(await open()).toMatchObject({
      ok: false,
      error: { code: 'bundle-damaged', message: expect.stringMatching(/is not a usable review bundle: it does not unpack/) },
    });
  });

  it('refuses a bundle whose file was changed after export, naming the file', async () => {
    await exportBaton();
    await rewrite((entries) => entries.map((e) => (e.path.endsWith('AC-1.json') ? { ...e, content: Buffer.from('{"id":"AC-1","then":"forged"}') } : e)));
    expect(await open()).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/\.baton\/features\/F-1\/stories\/S-1\/acs\/AC-1\.json does not match its manifest/) },
    });
  });

  it('refuses entries that climb out with .., links, and files the manifest does not list', async () => {
    await exportBaton();
    const original = await fs.readFile(out);
    await rewrite((entries) => [...entries, { path: '.baton/../../evil.sh', typeflag: '0', content: Buffer.from('rm -rf ~') }]);
    expect(await open()).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/"\.baton\/\.\.\/\.\.\/evil\.sh" that cannot be unpacked safely: it climbs out/) },
    });

    await fs.writeFile(out, original);
    const tar = gunzipSync(original);
    const entries = readTar(tar);
    const link = tarFile('.baton/link', Buffer.alloc(0), new Date(0));
    link.write('2', 156, 'latin1'); // typeflag: symbolic link
    link.fill(0x20, 148, 156);
    link.write(
      `${link
        .reduce((sum, b) => sum + b, 0)
        .toString(8)
        .padStart(6, '0')}\0 `,
      148,
      'latin1',
    );
    await fs.writeFile(out, gzipSync(Buffer.concat([...entries.map((e) => tarFile(e.path, e.content, new Date(0))), link, tarEnd()])));
    expect(await open()).toMatchObject({ ok: false, error: { message: expect.stringMatching(/\.baton\/link, which is a link or special file/) } });

    await fs.writeFile(out, original);
    await rewrite((entries) => [...entries, { path: '.baton/extra.json', typeflag: '0', content: Buffer.from('{}') }]);
    expect(await open()).toMatchObject({ ok: false, error: { message: expect.stringMatching(/extra\.json, which its manifest does not list/) } });
    expect((await fs.readdir(t.root)).filter((name) => name.startsWith('baton-bundle-'))).toEqual([]);
  });

  it('refuses a manifest that misstates the head, or is not a manifest at all', async () => {
    await appendSome(t.ledger, 2);
    await exportBaton();
    await rewrite(([manifest, ...rest]) => {
      const json = JSON.parse(manifest!.content.toString()) as Record<string, unknown>;
      return [{ ...manifest!, content: Buffer.from(JSON.stringify({ ...json, records: 1 })) }, ...rest];
    });
    expect(await open()).toMatchObject({ ok: false, error: { message: expect.stringMatching(/manifest says 1 records .* but the ledger inside has 2/) } });
    await rewrite(([manifest, ...rest]) => [{ ...manifest!, content: Buffer.from('{"format":"zip"}') }, ...rest]);
    expect(await open()).toMatchObject({ ok: false, error: { message: expect.stringMatching(/not a Baton bundle manifest/) } });
  });

  it('tells a bundle from other files, reading only the start of a large one', async () => {
    await t.ledger.append({ type: 'x', actor: ORCHESTRATOR, blobs: [{ name: 'noise', content: randomBytes(300_000) }] });
    await exportBaton();
    expect((await fs.stat(out)).size).toBeGreaterThan(300_000);
    expect(await isBundleFile(out)).toBe(true);
    const other = path.join(t.root, 'other.gz');
    await fs.writeFile(other, gzipSync(Buffer.concat([tarFile('readme.txt', Buffer.from('hi'), new Date(0)), tarEnd()])));
    expect(await isBundleFile(other)).toBe(false);
    expect(await isBundleFile(t.root)).toBe(false);
    expect(await isBundleFile(path.join(t.root, 'missing.baton'))).toBe(false);
    expect(await isBundleFile(path.join(t.artifactRoot, 'project.json'))).toBe(false);
  });
});
