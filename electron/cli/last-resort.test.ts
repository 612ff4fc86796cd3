/**
 * Whatever goes wrong inside a command, `baton` answers: one line on stderr (the stack only with
 * BATON_DEBUG=1), with --json one `{ok:false, error:{code:'internal'}}` document on stdout, and a
 * non-zero exit code. And the inputs that used to get there (1e999, a lone surrogate, deep nesting
 * in a gated file) are now problems of the file instead.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { batonFeature } from '../gates/gate-project.fixture';
import { makeTempDir, removeDir, writeTree } from '../project/temp-project.fixture';
import { main } from './main';

let root: string;
beforeAll(async () => {
  root = await makeTempDir('baton-last-resort-');
  await writeTree(root, { ...batonFeature(), '.baton/project.json': { name: 'shop' } });
});
afterAll(() => removeDir(root));
afterEach(() => {
  delete process.env['BATON_DEBUG'];
});

/** Runs `baton` with an Io whose first write to stdout fails with `failure` (a bug in the middle of a command). */
const failingOnce = async (failure: unknown, ...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  let calls = 0;
  const code = await main(argv, {
    out: (text) => {
      if (calls++ === 0) throw failure;
      out.push(text);
    },
    err: (text) => err.push(text),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('the last-resort catch', () => {
  it('with --json prints one internal-error document and one line on stderr, no stack', async () => {
    const { code, out, err } = await failingOnce(new Error('boom\nsecond line'), 'inspect', root, '--json');
    expect(code).toBe(1);
    expect(JSON.parse(out)).toEqual({ ok: false, error: { code: 'internal', message: 'an unexpected error stopped the command: boom' } });
    expect(err).toBe('baton: an unexpected error stopped the command: boom (run with BATON_DEBUG=1 for the stack trace, and please report it)');
  });

  it('without --json prints only the line; `throw null` too', async () => {
    const { code, out, err } = await failingOnce(null, 'inspect', root);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/^baton: an unexpected error stopped the command: null \(run with BATON_DEBUG=1/);
  });

  it('prints the stack with BATON_DEBUG=1', async () => {
    process.env['BATON_DEBUG'] = '1';
    const { err } = await failingOnce(new TypeError('kaput'), 'inspect', root);
    expect(err.split('\n')[0]).toBe('baton: an unexpected error stopped the command: kaput');
    expect(err).toMatch(/^TypeError: kaput\n\s+at /m);
  });
});

describe('unhashable JSON in a gated file', () => {
  it.each([
    ['stories/S-1/story.json', '{"id":"S-1","title":"x","n":1e999}', 'a number too large for JSON (1e999) at `n`'],
    ['stories/S-1/acs/AC-1.json', '{"id":"AC-1","given":"\\ud800"}', 'a lone surrogate (\\ud800) in a string at `given`'],
    ['test-list.json', `{"items":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'nesting deeper than 512 levels at `items[0]'],
  ])('%s is a problem of that file in `baton inspect --json`', async (name, text, reason) => {
    const file = path.join(root, '.baton', 'features', 'F-1', name);
    const seed = await fs.readFile(file);
    await fs.writeFile(file, text);
    try {
      const out: string[] = [];
      const code = await main(['inspect', root, '--json'], { out: (t) => out.push(t), err: () => undefined });
      expect(code).toBe(1);
      const report = JSON.parse(out.join('\n')) as { problems: { file: string; message: string }[] };
      expect(report.problems).toContainEqual({ file: `.baton/features/F-1/${name}`, message: expect.stringContaining(`holds ${reason}`) });
      for (const command of ['gates', 'verify']) {
        const answer: string[] = [];
        expect(await main([command, root, '--json'], { out: (t) => answer.push(t), err: () => undefined })).toBeLessThanOrEqual(1);
        expect(JSON.parse(answer.join('\n'))).not.toHaveProperty('error');
      }
    } finally {
      await fs.writeFile(file, seed);
    }
  });
});
