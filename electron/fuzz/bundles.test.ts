/**
 * Review bundles (`baton export`): a gated project's bundle, mutated either as raw bytes (the
 * gzip stream) or entry by entry (manifest.json, events.jsonl, a feature file) and re-packed, then
 * opened by `baton verify|gates|log <bundle> --json` as a reviewer would.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batonFeature, makeBatonProject, type TestProject } from '../gates/gate-project.fixture';
import { exportBundle } from '../ledger/bundle';
import { MANIFEST_PATH, type BundleManifest } from '../ledger/bundle-manifest';
import { sha256Hex } from '../ledger/hashing';
import { EVENTS_FILE, parseLedger } from '../ledger/ledger-file';
import { readTar, tarEnd, tarFile, type TarEntry } from '../ledger/tar';
import { BYTE_MUTATORS, mutatorsFor } from './mutators.fixture';
import { closeLanes, type Lane, makeLanes, runCli } from './project-files.fixture';
import { FuzzLog, inLanes, LANES } from './sandbox.fixture';

const CASES = 90;
const COMMANDS = ['verify', 'gates', 'log'];

const log = new FuzzLog('bundles');
let project: TestProject;
let bundle: string;
let lanes: Lane[] = [];

beforeAll(async () => {
  project = await makeBatonProject({ ...batonFeature(), '.baton/project.json': { name: 'shop', defaultBranch: 'main' } });
  for (const gate of ['spec', 'design', 'test_list'] as const) {
    const approved = await project.approve(gate);
    if (!approved.ok) throw new Error(`seed bundle: ${gate} not approved: ${approved.error.message}`);
  }
  bundle = path.join(project.root, 'review.baton');
  const exported = await exportBundle({ artifactRoot: path.join(project.root, '.baton'), layout: 'baton', projectName: 'shop', out: bundle });
  if (!exported.ok) throw new Error(`seed bundle: ${exported.error.message}`);
  // Each lane writes its own bundle file in the project folder (the folder itself is never opened).
  lanes = makeLanes(Array.from({ length: LANES }, (_, k) => path.join(project.root, `lane-${k}.baton`)));
});

afterAll(async () => {
  await closeLanes(lanes, false);
  await project.cleanup();
});

const pack = (entries: readonly TarEntry[]): Buffer => gzipSync(Buffer.concat([...entries.map((e) => tarFile(e.path, e.content, new Date(0))), tarEnd()]));

/**
 * The manifest made to vouch for a mutated entry again (its hash and size, and for the ledger its
 * head and record count), so the bundle opens and the mutation reaches the readers behind the seal.
 */
const resealed = (entries: readonly TarEntry[], changed: TarEntry): TarEntry[] => {
  const manifestEntry = entries.find((e) => e.path === MANIFEST_PATH)!;
  const manifest = JSON.parse(manifestEntry.content.toString('utf8')) as BundleManifest;
  const files = manifest.files.map((f) => (f.path === changed.path ? { ...f, sha256: sha256Hex(changed.content), bytes: changed.content.length } : f));
  let { head, records } = manifest;
  if (changed.path.endsWith(`/${EVENTS_FILE}`)) {
    const read = parseLedger(changed.content).entries.flatMap((entry) => ('record' in entry ? [entry.record] : []));
    [head, records] = [read.at(-1)?.hash ?? null, read.length];
  }
  const content = Buffer.from(JSON.stringify({ ...manifest, files, head, records }));
  return entries.map((e) => (e === manifestEntry ? { ...e, content } : e.path === changed.path ? changed : e));
};

describe('fuzz: review bundles', () => {
  it(`${CASES} mutated bundles, each through baton verify, gates and log --json`, { timeout: 600_000 }, async () => {
    const seed = await fs.readFile(bundle);
    const entries = readTar(gunzipSync(seed));
    const targets = entries.filter((e) => e.path === 'manifest.json' || e.path.endsWith('events.jsonl') || e.path.endsWith('.json')).slice(0, 6);
    await inLanes(CASES, lanes, async (lane, i) => {
      const rng = log.rng(i);
      let bytes: Buffer;
      let what: string;
      if (i % 3 === 0) {
        const mutated = BYTE_MUTATORS[(i / 3) % BYTE_MUTATORS.length]!.apply(seed, rng);
        [bytes, what] = [mutated.bytes, `gzip ${mutated.mutation}`];
      } else {
        const target = targets[i % targets.length]!;
        const mutators = mutatorsFor(target.content);
        const mutated = mutators[i % mutators.length]!.apply(target.content, rng);
        const changed = { ...target, content: mutated.bytes };
        // Half the time the seal is left broken (the bundle must be refused in words), half re-made.
        const seal = target.path !== MANIFEST_PATH && i % 2 === 0;
        bytes = pack(seal ? resealed(entries, changed) : entries.map((e) => (e === target ? changed : e)));
        what = `${target.path}${seal ? ' (resealed)' : ''} ${mutated.mutation}`;
      }
      await fs.writeFile(lane.root, bytes);
      log.cases++;
      for (const command of COMMANDS) await runCli(log, lane, command, lane.root, `#${i} ${what}`);
    });
    console.log(log.summary());
    expect(log.cases).toBe(CASES);
    expect(log.failures).toEqual([]);
  });
});
