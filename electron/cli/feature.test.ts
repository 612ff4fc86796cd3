/**
 * `baton feature new`: intake from a terminal on a real project (made by `baton init`), through the
 * `features:new` channel: the folder, the request and attachments, the ledger record with the files
 * as blobs; a duplicate, an empty request and a Consort project are refused, writing nothing.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../ledger';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import { main } from './main';

const ADA = 'Ada <ada@example.com>';
const FIXTURE = path.resolve(import.meta.dirname, '../../e2e/fixtures/consort-shop');
let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'baton-feature-'));
  root = path.join(base, 'shop');
  await promisify(execFile)('git', ['init', '-q', '-b', 'main', root]);
  const init = await run(['init', root]);
  expect(init.err).toBe('');
  await writeFile(path.join(base, 'request.md'), 'Shoppers pay with a gift card at checkout; a card is never spent twice.\n');
  await writeFile(path.join(base, 'constraints.md'), '- Cards are issued by the finance system.\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const newFeature = (...extra: string[]) =>
  run(['feature', 'new', root, '--title', 'Gift cards at checkout', '--request', path.join(base, 'request.md'), '--approver', ADA, ...extra]);

describe('baton feature new', () => {
  it('creates the feature from the request and its attachments and records them in the ledger', async () => {
    const result = await newFeature('--attach', path.join(base, 'constraints.md'));
    expect(result.code).toBe(0);
    expect(result.out).toContain('Feature F-gift-cards-at-checkout created from the request');
    const dir = path.join(root, '.baton', 'features', 'F-gift-cards-at-checkout');
    expect(JSON.parse(await readFile(path.join(dir, 'feature.json'), 'utf8'))).toEqual({
      id: 'F-gift-cards-at-checkout',
      name: 'Gift cards at checkout',
      description: 'Shoppers pay with a gift card at checkout; a card is never spent twice.',
      request: 'request.md',
    });
    expect(await readFile(path.join(dir, 'attachments', 'constraints.md'), 'utf8')).toBe('- Cards are issued by the finance system.\n');
    const ledger = Ledger.forArtifactRoot(path.join(root, '.baton'));
    const [record] = recordsOf((await ledger.read()).records, RECORD_TYPES.featureRequested);
    expect(record?.actor).toEqual({ kind: 'person', id: ADA });
    expect(record?.data.title).toBe('Gift cards at checkout');
    expect(record?.blobs.map((b) => b.name)).toEqual(['request.md', 'attachments/constraints.md']);
    expect((await ledger.readBlob(record!.blobs[0]!.sha256))?.toString()).toBe(await readFile(path.join(dir, 'request.md'), 'utf8'));
    // The project lists it at once, with its request as the description.
    const status = await run(['inspect', root, '--json']);
    expect(status.out).toContain('F-gift-cards-at-checkout');
  });

  it('refuses a second feature with the same id and an empty request, leaving the ledger as it was', async () => {
    expect((await newFeature()).code).toBe(0);
    const again = await newFeature('--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.out)).toMatchObject({ ok: false, error: { code: 'exists' } });
    expect(again.err).toContain('Feature F-gift-cards-at-checkout already exists');
    await writeFile(path.join(base, 'empty.md'), '  \n');
    const empty = await run(['feature', 'new', root, '--title', 'Other', '--request', path.join(base, 'empty.md'), '--approver', ADA]);
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/request.*is required/);
    expect(existsSync(path.join(root, '.baton', 'features', 'F-other'))).toBe(false);
    expect((await Ledger.forArtifactRoot(path.join(root, '.baton')).read()).records).toHaveLength(1);
  });

  it('says what is missing on the command line, and refuses a Consort project as read-only', async () => {
    const missing = await run(['feature', 'new', root, '--title', 'X', '--request', path.join(base, 'nope.md')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('Cannot read the request');
    expect((await run(['feature', 'new', root, '--request', path.join(base, 'request.md')])).err).toContain('--title is required');
    const consort = await run(['feature', 'new', FIXTURE, '--title', 'X', '--request', path.join(base, 'request.md'), '--approver', ADA]);
    expect(consort.code).toBe(1);
    expect(consort.err).toContain('Baton reads this Consort project and never writes it');
  });
});
