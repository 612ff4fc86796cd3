import { describe, expect, it } from 'vitest';
import { judgeGreen, judgeRed, type JudgedCase } from './judge';

const c = (id: string, status: JudgedCase['status'], message: string | null = null): JudgedCase => ({ id, status, message });
const base = { cases: [c('a', 'passed'), c('b', 'passed')] };

describe('RED', () => {
  it('a new failing test with nothing broken is a RED', () => {
    expect(judgeRed(base, { cases: [...base.cases, c('t3', 'failed', 'expected 3')] }, 1)).toEqual({ verdict: 'red', failing: ['t3'] });
  });
  it('a new test that passes at once is not', () => {
    expect(judgeRed(base, { cases: [...base.cases, c('t3', 'passed')] }, 1).verdict).toBe('passed-at-once');
  });
  it('a suite that does not load is not, even if something fails', () => {
    expect(judgeRed(base, { cases: [c('test/x.test.js', 'errored', 'SyntaxError: Unexpected token')] }, 1)).toMatchObject({
      verdict: 'load-error',
      detail: expect.stringContaining('SyntaxError'),
    });
  });
  it('breaking a test that passed before is not', () => {
    expect(judgeRed(base, { cases: [c('a', 'failed'), c('b', 'passed'), c('t3', 'failed')] }, 1)).toMatchObject({
      verdict: 'regressed',
      detail: expect.stringContaining('a'),
    });
    expect(judgeRed(base, { cases: [c('b', 'passed'), c('t3', 'failed')] }, 1).verdict).toBe('regressed');
  });
  it('no new test is not', () => {
    expect(judgeRed(base, base, 0)).toMatchObject({ verdict: 'no-test', detail: 'the Navigator wrote no test' });
  });
});

describe('GREEN', () => {
  const locked = { cases: [...base.cases, c('t3', 'failed')] };
  it('all passing, nothing locked missing or skipped', () => {
    expect(judgeGreen(locked, { cases: [c('a', 'passed'), c('b', 'passed'), c('t3', 'passed')] })).toEqual({ verdict: 'green' });
  });
  it('a failure is reported with its message', () => {
    const j = judgeGreen(locked, { cases: [c('a', 'passed'), c('b', 'passed'), c('t3', 'failed', 'expected 3, got 0')] });
    expect(j).toMatchObject({ verdict: 'failing', failure: expect.stringContaining('expected 3, got 0') });
  });
  it('a locked test that was skipped or vanished is not green', () => {
    expect(judgeGreen(locked, { cases: [c('a', 'passed'), c('b', 'passed'), c('t3', 'skipped')] }).verdict).toBe('failing');
    expect(judgeGreen(locked, { cases: [c('a', 'passed'), c('b', 'passed')] }).verdict).toBe('failing');
    expect(judgeGreen({ cases: [] }, { cases: [] }).verdict).toBe('failing');
  });
});
