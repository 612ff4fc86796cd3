import { describe, expect, it } from 'vitest';
import { judgeAddedTests, refusedLine } from './added-tells';

const HEAD = "import test from 'node:test';\nimport assert from 'node:assert/strict';\n";

describe('the tests a strengthening round added', () => {
  it('accepts a test that only calls the code, and refuses one that reads the code as text or tells its run apart', () => {
    const files = new Map([
      ['test/values.test.js', `${HEAD}import { add } from '../src/calc.js';\ntest('adds', () => { assert.equal(add(2, 3), 5); });\n`],
      [
        'test/source.test.js',
        `${HEAD}import { readFileSync } from 'node:fs';\ntest('is a sum', () => { assert.match(readFileSync(new URL('../src/calc.js', import.meta.url), 'utf8'), /a \\+ b/); });\n`,
      ],
      ['test/where.test.js', `${HEAD}test('runs at home', () => { assert.ok(!import.meta.url.includes('mutant')); });\n`],
      ['test/pid.test.js', `${HEAD}test('low pid', () => { assert.ok(process.pid > 200); });\n`],
    ]);
    const { accepted, refused } = judgeAddedTests(files);
    expect([...accepted.keys()]).toEqual(['test/values.test.js']);
    expect(refused.map((t) => [t.file, t.why])).toEqual([
      ['test/source.test.js', 'reads source code at run time'],
      ['test/where.test.js', 'inspects where the module runs from'],
      ['test/pid.test.js', 'reads its process ids'],
    ]);
    expect(refusedLine(refused.slice(0, 1))).toBe('refused test/source.test.js:4 (reads source code at run time)');
  });

  it('does not hold loading the runner or a helper beside the test against it', () => {
    const files = new Map([['test/a.test.js', `${HEAD}import { fixture } from './helpers.js';\ntest('x', () => { assert.equal(fixture().n, 1); });\n`]]);
    expect(judgeAddedTests(files)).toEqual({ accepted: files, refused: [] });
  });
});
