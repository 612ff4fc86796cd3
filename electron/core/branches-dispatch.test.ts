/** The branch channels' payload rules, as both transports enforce them through dispatch. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { dispatch } from './dispatch';
import { createHandlers, type Handlers } from './handlers';
import { Workbench } from './workbench';

let configDir: string;
let handlers: Handlers;

beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'baton-'));
  handlers = createHandlers(new Workbench({ host: 'browser', version: '9.9.9', configDir }));
});

afterAll(async () => {
  await rm(configDir, { recursive: true, force: true });
});

const BRANCH_CHANNELS = ['branches:create', 'branches:delete', 'branches:reset', 'branches:diff', 'branches:cancel'] as const;

/** The real handlers with every branch channel recording what reached it. */
function recording(): { handlers: Handlers; calls: [Channel, unknown][] } {
  const calls: [Channel, unknown][] = [];
  const patched: Record<string, unknown> = { ...handlers };
  for (const channel of BRANCH_CHANNELS) {
    patched[channel] = async (request: unknown) => {
      calls.push([channel, request]);
      return { ok: false, error: { code: 'recorded', message: 'recorded' } };
    };
  }
  return { handlers: patched as Handlers, calls };
}

const errorOf = (result: Result<unknown>) => {
  if (result.ok) throw new Error(`expected an error Result, got ${JSON.stringify(result)}`);
  return result.error;
};

describe('branch requests: opId', () => {
  it.each([
    ['empty', ''],
    ['with a space', 'op 1'],
    ['with a slash', 'op/1'],
    ['with an underscore', 'op_1'],
    ['65 characters long', 'a'.repeat(65)],
    ['a number', 42],
  ])('refuses an opId %s on every branch channel, naming the field', async (_label, opId) => {
    const { handlers: recorded, calls } = recording();
    for (const channel of BRANCH_CHANNELS) {
      const payload =
        channel === 'branches:create' ? { opId, gitBranch: 'feature/login' } : channel === 'branches:cancel' ? { opId } : { opId, name: 'feature-login' };
      const error = errorOf(await dispatch(recorded, channel, payload));
      expect(error.code).toBe('invalid-request');
      expect(error.message).toContain(channel);
      expect(error.message).toMatch(/opId: /);
    }
    expect(calls).toEqual([]);
  });

  it('passes a well-formed opId through as given', async () => {
    const { handlers: recorded, calls } = recording();
    await dispatch(recorded, 'branches:cancel', { opId: 'lx2-1-Ab9' });
    expect(calls).toEqual([['branches:cancel', { opId: 'lx2-1-Ab9' }]]);
  });
});

describe('branch requests: names', () => {
  it.each([
    ['empty', '', /gitBranch: is empty/],
    ['with a NUL byte', 'feature/a\0b', /gitBranch: contains a control character/],
    ['with a newline', 'feature/a\nb', /gitBranch: contains a control character/],
    ['with DEL', 'feature/\u007f', /gitBranch: contains a control character/],
    ['201 characters long', 'f'.repeat(201), /gitBranch: is longer than 200 characters/],
  ])('refuses a git branch %s with a message saying why', async (_label, gitBranch, detail) => {
    const { handlers: recorded, calls } = recording();
    const error = errorOf(await dispatch(recorded, 'branches:create', { opId: 'op-1', gitBranch }));
    expect(error.code).toBe('invalid-request');
    expect(error.message).toMatch(detail);
    expect(calls).toEqual([]);
  });

  it('checks the parent like a git branch, and the name of delete, reset and diff', async () => {
    const { handlers: recorded, calls } = recording();
    expect(errorOf(await dispatch(recorded, 'branches:create', { opId: 'op-1', gitBranch: 'a', parent: 'm\0' })).message).toMatch(
      /parent: contains a control character/,
    );
    for (const channel of ['branches:delete', 'branches:reset', 'branches:diff'] as const) {
      expect(errorOf(await dispatch(recorded, channel, { opId: 'op-1', name: '' })).message).toMatch(/name: is empty/);
      expect(errorOf(await dispatch(recorded, channel, { opId: 'op-1' })).message).toMatch(/name: /);
    }
    expect(calls).toEqual([]);
  });

  it('refuses extra keys, such as a smuggled connection URL', async () => {
    const { handlers: recorded, calls } = recording();
    const error = errorOf(await dispatch(recorded, 'branches:create', { opId: 'op-1', gitBranch: 'a', url: 'postgres://x' }));
    expect(error.message).toContain('"url"');
    expect(calls).toEqual([]);
  });

  it('passes valid requests through unchanged', async () => {
    const { handlers: recorded, calls } = recording();
    await dispatch(recorded, 'branches:create', { opId: 'op-1', gitBranch: 'feature/login', parent: 'main' });
    await dispatch(recorded, 'branches:delete', { opId: 'op-2', name: 'feature-login' });
    expect(calls).toEqual([
      ['branches:create', { opId: 'op-1', gitBranch: 'feature/login', parent: 'main' }],
      ['branches:delete', { opId: 'op-2', name: 'feature-login' }],
    ]);
  });
});

describe('branch channels without a project', () => {
  it('answer no-project, and cancel of an unknown op says nothing was cancelled', async () => {
    expect(errorOf(await dispatch(handlers, 'branches:list', {})).code).toBe('no-project');
    expect(errorOf(await dispatch(handlers, 'branches:status', {})).code).toBe('no-project');
    expect(errorOf(await dispatch(handlers, 'branches:diff', { opId: 'op-1', name: 'x' })).code).toBe('no-project');
    expect(await dispatch(handlers, 'branches:cancel', { opId: 'op-1' })).toEqual({ ok: true, value: { cancelled: false } });
  });
});
