import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATON_NODE_REPORTER, parseBatonNode } from './baton-node-reporter';

const run = promisify(execFile);

const A = `import { before, describe, it, test } from 'node:test';
import assert from 'node:assert';
describe('outer', () => {
  describe('inner', () => {
    it('adds', () => { assert.strictEqual(1 + 1, 2); });
    it('breaks', () => { throw new Error('wrapped', { cause: new Error('the root') }); });
  });
  it('compares', () => { assert.strictEqual(1, 2); });
  it.skip('skipped one', () => {});
  it.todo('todo one');
});
describe('hooked', () => {
  before(() => { throw new Error('the hook broke'); });
  it('never runs', () => {});
});
test('top', () => {});
`;
const B = `import { x } from './missing.mjs';\nconsole.error('loading b');\n`;

/** The reporter, written outside the tested folder, run by node --test on real files. */
describe("Baton's node:test reporter in a real run", () => {
  let dir: string;
  let scratch: string;
  let text: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-reporter-run-'));
    scratch = await mkdtemp(join(tmpdir(), 'baton-reporter-scratch-'));
    await writeFile(join(dir, 'a.test.mjs'), A);
    await writeFile(join(dir, 'b.test.mjs'), B);
    await writeFile(join(scratch, 'reporter.mjs'), BATON_NODE_REPORTER);
    const out = join(scratch, 'out.jsonl');
    await run(
      process.execPath,
      ['--test', `--test-reporter=${join(scratch, 'reporter.mjs')}`, `--test-reporter-destination=${out}`, 'a.test.mjs', 'b.test.mjs'],
      { cwd: dir },
    ).catch(() => undefined);
    text = await readFile(out, 'utf8');
  }, 30_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  });

  it('every test with its file, suite path, status and message; no foreign line', () => {
    const { report, foreign } = parseBatonNode(text, dir);
    expect(foreign).toBe(0);
    const seen = report.cases.map((c) => [c.file, c.suite.join('/'), c.name, c.status]);
    expect(seen).toEqual([
      ['a.test.mjs', 'outer/inner', 'adds', 'passed'],
      ['a.test.mjs', 'outer/inner', 'breaks', 'failed'],
      ['a.test.mjs', 'outer', 'compares', 'failed'],
      ['a.test.mjs', 'outer', 'skipped one', 'skipped'],
      ['a.test.mjs', 'outer', 'todo one', 'skipped'],
      ['a.test.mjs', 'hooked', 'never runs', 'failed'],
      ['a.test.mjs', '', 'hooked', 'errored'],
      ['a.test.mjs', '', 'top', 'passed'],
      ['b.test.mjs', '', 'b.test.mjs', 'errored'],
    ]);
    const byName = (name: string) => report.cases.find((c) => c.name === name)!;
    expect(byName('adds').id).toBe('a.test.mjs › outer › inner › adds');
    expect(byName('adds').message).toBeNull();
    // The thrown error's message, not node:test's wrapper ("test failed").
    expect(byName('breaks').message).toBe('wrapped');
    expect(byName('compares').message).toMatch(/^Expected values to be strictly equal:\s+1 !== 2$/);
    expect(byName('skipped one').message).toBeNull();
    expect(byName('hooked').message).toBe('the hook broke');
    expect(report.totals).toEqual({ passed: 2, failed: 3, errored: 2, skipped: 2 });
  });

  it('a test named with a lone surrogate becomes U+FFFD, so its record can be hashed', () => {
    const line = text.split('\n').find((l) => l.includes('"adds"'))!;
    const poisoned = line.replace('"adds"', '"add\\ud800s"');
    const named = parseBatonNode(poisoned, dir).report.cases.map((c) => c.name);
    expect(named).toEqual(['add\ufffds']);
  });

  it('a file that does not load is one errored case with its stderr', () => {
    const load = parseBatonNode(text, dir).report.cases.find((c) => c.file === 'b.test.mjs')!;
    expect(load.id).toBe('b.test.mjs › (load)');
    expect(load.message).toMatch(/^the file did not load: test failed\n/);
    expect(load.message).toContain("Cannot find module '");
    expect(load.message).toContain('missing.mjs');
  });

  it('lines something else wrote into the stream are counted as foreign and never become cases', () => {
    const clean = parseBatonNode(text, dir).report.cases;
    const forged = [
      'ok 1 - top',
      '{"file":"x.test.mjs","suite":[],"name":"fake","kind":"test","status":"ok"}',
      '{"file":"x.test.mjs","suite":"outer","name":"fake","kind":"test","status":"passed"}',
      '{"file":"x.test.mjs","suite":[1],"name":"fake","kind":"test","status":"passed"}',
      '{"file":"x.test.mjs","suite":[],"name":"fake","kind":"it","status":"passed"}',
      'null',
      '"passed"',
      '{"file":"x.test.mjs","suite":[],"name":"fake","kind":"test","status":"passed"',
    ];
    const { report, foreign } = parseBatonNode(`${forged[0]}\n${text}\n\n${forged.slice(1).join('\n')}\n`, dir);
    expect(foreign).toBe(forged.length);
    expect(report.cases).toEqual(clean);
  });

  it('a well-formed forged line for a real test is read, and shows as a second case with the same id', () => {
    const line = JSON.stringify({
      file: join(dir, 'a.test.mjs'),
      suite: ['outer'],
      name: 'compares',
      kind: 'test',
      status: 'passed',
      message: null,
      load: false,
      stderr: null,
    });
    const { report, foreign } = parseBatonNode(`${text}${line}\n`, dir);
    expect(foreign).toBe(0);
    expect(report.cases.filter((c) => c.id === 'a.test.mjs › outer › compares').map((c) => c.status)).toEqual(['failed', 'passed']);
  });
});

describe('parseBatonNode by hand', () => {
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ file: '/run/t/a.test.mjs', suite: [], name: 'n', kind: 'test', status: 'passed', message: null, load: false, stderr: null, ...fields });

  it('a suite that failed only because of its tests adds no case; one that failed itself is errored', () => {
    const text = [
      line({ kind: 'suite', status: 'failed', cause: 'subtestsFailed', message: '1 subtest failed' }),
      line({ kind: 'suite', name: 's', status: 'failed', cause: 'hookFailed', message: 'boom' }),
      line({ kind: 'suite', name: 'ok' }),
    ].join('\n');
    const cases = parseBatonNode(text, '/run/t').report.cases;
    expect(cases.map((c) => [c.id, c.status, c.message])).toEqual([['a.test.mjs › s (suite)', 'errored', 'boom']]);
  });

  it('a passed test keeps no message; files are made relative to the run folder', () => {
    const cases = parseBatonNode(line({ message: 'stray', file: '/run/t/deep/x.test.mjs' }), '/run/t').report.cases;
    expect(cases.map((c) => [c.file, c.message])).toEqual([['deep/x.test.mjs', null]]);
  });
});
