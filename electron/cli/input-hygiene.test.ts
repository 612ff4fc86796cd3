/**
 * What `baton approve | reject | withdraw` accept as a person's words and artifact names, on a real
 * project: an `--expect` naming no artifact of the gate (`__proto__` included) is refused with the
 * gate's artifacts named; an approver name with a terminal escape and a line break, and an overlong
 * reason, are refused. What `baton feature new` and `baton amend propose` read and record (issue 32):
 * a title with a terminal escape is refused; `--request`, `--attach` and `--from` read only a regular
 * file, within a bound (a named pipe and /dev/zero are refused at once, a file or standard input past
 * the bound too); `inspect` shows a feature name from a file with its control characters escaped.
 * Every refusal exits non-zero and appends nothing to the ledger.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { batonFeature } from '../gates/gate-project.fixture';
import { Ledger } from '../ledger';
import { writeTree } from '../project/temp-project.fixture';
import { main } from './main';
import { readInputFile } from './read-input';

const run = promisify(execFile);
const ADA = 'Ada Lovelace <ada@example.com>';
const HASH = 'a'.repeat(64);
const SPEC_ARTIFACTS = ['feature.json', 'stories/S-1/acs/AC-1.json', 'stories/S-1/acs/AC-2.json', 'stories/S-1/story.json'];

let base: string;
let repo: string;
const saved = process.env.BATON_CONFIG_DIR;

async function baton(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const gateRecords = async () => (await Ledger.forArtifactRoot(join(repo, '.baton')).read()).records.filter((r) => r.subject.gate !== undefined);
const ledgerText = () => readFile(join(repo, '.baton', 'ledger', 'events.jsonl'), 'utf8').catch(() => '');

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-input-'));
  process.env.BATON_CONFIG_DIR = join(base, 'config');
  repo = join(base, 'shop');
  await run('git', ['init', '-q', '-b', 'main', repo]);
  expect((await baton('init', repo)).code).toBe(0);
  await writeTree(repo, batonFeature('F-1'));
}, 60_000);

afterAll(async () => {
  process.env.BATON_CONFIG_DIR = saved;
  await rm(base, { recursive: true, force: true });
});

describe('artifact names in --expect', () => {
  it('refuses --expect __proto__=<hash>, naming the gate’s artifacts, and records nothing', async () => {
    const before = await ledgerText();
    const refused = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', ADA, '--expect', `__proto__=${HASH}`);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('"__proto__"');
    for (const name of SPEC_ARTIFACTS) expect(refused.err).toContain(name);
    expect(await ledgerText()).toBe(before);
    expect(await gateRecords()).toEqual([]);
  });

  it('refuses a name the gate does not cover alongside real ones, as JSON too', async () => {
    const refused = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', ADA, '--expect', `unknown.md=${HASH}`, '--json');
    expect(refused.code).toBe(1);
    const body = JSON.parse(refused.out) as { ok: boolean; error: { code: string; message: string } };
    expect(body).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringContaining('"unknown.md"') } });
    expect(body.error.message).toContain(SPEC_ARTIFACTS.join(', '));
    expect(await gateRecords()).toEqual([]);
  });

  it('refuses constructor and prototype, and an artifact named twice', async () => {
    for (const name of ['constructor', 'prototype']) {
      const refused = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', ADA, '--expect', `${name}=${HASH}`);
      expect(refused.code, name).toBe(1);
    }
    const twice = await baton(
      'approve',
      repo,
      '--feature',
      'F-1',
      '--gate',
      'spec',
      '--approver',
      ADA,
      '--expect',
      `feature.json=${HASH}`,
      '--expect',
      `feature.json=${HASH}`,
    );
    expect(twice.code).toBe(2);
    expect(await gateRecords()).toEqual([]);
  });
});

describe("a person's words", () => {
  it('refuses an approver name holding a terminal escape and a line break, without echoing them', async () => {
    const before = await ledgerText();
    const refused = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--yes', '--approver', 'Mallory\u001b[31m\nx');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('The approver name (--approver) contains an escape character (U+001B) at character 8');
    expect(refused.err).not.toContain('\u001b');
    expect(await ledgerText()).toBe(before);
  });

  it('refuses a 5,000-character reason and a note with a carriage return', async () => {
    const long = await baton('reject', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', ADA, '--reason', 'x'.repeat(5000));
    expect(long.code).toBe(1);
    expect(long.err).toContain('The reason (--reason) is 5000 characters long; at most 4000 are accepted.');
    const note = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--yes', '--approver', ADA, '--comment', 'ok\rforged');
    expect(note.code).toBe(1);
    expect(note.err).toContain('The note (--comment) contains a carriage return (U+000D)');
    expect(await gateRecords()).toEqual([]);
  });

  it('still records a normal approval with its multi-line note, and a normal withdrawal', async () => {
    const listed = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', ADA);
    const expects = [...listed.err.matchAll(/^ {2}(\S+=[0-9a-f]{64})$/gm)].map((m) => m[1]!);
    expect(expects).toHaveLength(SPEC_ARTIFACTS.length);
    const approved = await baton(
      'approve',
      repo,
      '--feature',
      'F-1',
      '--gate',
      'spec',
      '--approver',
      ADA,
      '--comment',
      'Looks right.\n\tAll four read.',
      ...expects.flatMap((e) => ['--expect', e]),
    );
    expect(approved.code, approved.err).toBe(0);
    const [record] = await gateRecords();
    expect(record).toMatchObject({ type: RECORD_TYPES.gateApproved, actor: { id: ADA }, data: { approver: ADA, comment: 'Looks right.\n\tAll four read.' } });
    const withdrawn = await baton('withdraw', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', ADA, '--reason', 'Wrong story\nsee notes');
    expect(withdrawn.code, withdrawn.err).toBe(0);
    expect((await gateRecords()).map((r) => r.type)).toEqual([RECORD_TYPES.gateApproved, RECORD_TYPES.gateWithdrawn]);
  });
});

const featureNew = (...more: string[]) => baton('feature', 'new', repo, '--approver', ADA, ...more);
let request: string;

beforeAll(async () => {
  request = join(base, 'request.md');
  await writeFile(request, 'Shoppers buy gift cards and spend them at checkout; a card never goes below zero.\n');
});

describe('feature titles', () => {
  it('refuses a title with a terminal escape and a bell, naming the character and where, and records nothing', async () => {
    const before = await ledgerText();
    const refused = await featureNew('--title', 'T\u001b[2J\u0007', '--request', request);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/The feature title contains an escape character \(U\+001B\) at character 2: a title is one line of plain text/);
    expect(refused.err).not.toContain('\u001b');
    expect(await ledgerText()).toBe(before);
  });

  it('refuses a title over 200 characters, and takes a plain one', async () => {
    const long = await featureNew('--title', 'x'.repeat(201), '--request', request);
    expect(long.err).toMatch(/The feature title is 201 characters long; at most 200/);
    const made = await featureNew('--title', 'Gift cards', '--request', request, '--id', 'F-gift');
    expect(made.code).toBe(0);
  });
});

describe('files named on the command line', () => {
  it('refuses a named pipe at once, without waiting for a writer', async () => {
    const fifo = join(base, 'pipe');
    await run('mkfifo', [fifo]);
    const before = await ledgerText();
    const refused = await featureNew('--title', 'Pipes', '--request', fifo);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/Cannot read the request ".*pipe": it is a named pipe\. Give a regular file, or - for standard input\./);
    expect(await ledgerText()).toBe(before);
  });

  it('refuses /dev/zero as an attachment, and a request file past the bound', async () => {
    const zero = await featureNew('--title', 'Zeros', '--request', request, '--attach', '/dev/zero');
    expect(zero.err).toMatch(/Cannot read the attachment "\/dev\/zero": it is a device/);
    const big = join(base, 'big.md');
    await writeFile(big, 'a'.repeat(40_000));
    const refused = await featureNew('--title', 'Big', '--request', big);
    expect(refused.err).toMatch(/is larger than 32,000 bytes, more than Baton reads/);
    const folder = await featureNew('--title', 'Folder', '--request', base);
    expect(folder.err).toMatch(/it is a folder/);
  });

  it('amend propose --from refuses /dev/zero before opening the project', async () => {
    const refused = await baton(
      'amend',
      'propose',
      repo,
      '--feature',
      'F-gift',
      '--item',
      'T1',
      '--path',
      'test/t1.test.js',
      '--reason',
      'wrong total',
      '--from',
      '/dev/zero',
    );
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/Cannot read the new test "\/dev\/zero": it is a device/);
  });

  it('reads standard input only up to the bound', async () => {
    const endless = Readable.from(
      (function* () {
        for (let i = 0; i < 1000; i += 1) yield Buffer.alloc(1024);
      })(),
    );
    await expect(readInputFile('-', 'the request', 32_000, endless)).rejects.toThrow(/Cannot read the request: \(standard input\) is larger than 32,000 bytes/);
    await expect(readInputFile('-', 'the request', 32_000, Readable.from([Buffer.from('one paragraph')]))).resolves.toBe('one paragraph');
  });
});

describe('inspect', () => {
  it('shows a feature name with control characters escaped, never raw', async () => {
    await writeTree(repo, { ...batonFeature('F-raw'), '.baton/features/F-raw/feature.json': { id: 'F-raw', name: 'Raw\u001b[2J name', description: 'x' } });
    const shown = await baton('inspect', repo);
    expect(shown.out).toContain('F-raw  Raw\\u001b[2J name');
    expect(shown.out).not.toContain('\u001b');
  });
});
