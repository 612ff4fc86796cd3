import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** The real handlers, with `project:open` replaced by one that records what reached it. */
function recordingOpen(): { handlers: Handlers; calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    handlers: {
      ...handlers,
      'project:open': async (request) => {
        calls.push(request);
        return { ok: false, error: { code: 'recorded', message: 'recorded' } };
      },
    },
  };
}

const errorOf = (result: Result<unknown>) => {
  if (result.ok) throw new Error(`expected an error Result, got ${JSON.stringify(result)}`);
  return result.error;
};

describe('dispatch: channels', () => {
  it.each([['fs:read'], ['toString'], ['__proto__'], [''], [42], [undefined]])('refuses %j as forbidden-channel', async (channel) => {
    const { handlers: recording, calls } = recordingOpen();
    const error = errorOf(await dispatch(recording, channel, { path: '/tmp' }));
    expect(error.code).toBe('forbidden-channel');
    expect(calls).toHaveLength(0);
  });

  it('quotes a long unknown channel name only in part', async () => {
    const error = errorOf(await dispatch(handlers, 'x'.repeat(500), {}));
    expect(error.code).toBe('forbidden-channel');
    expect(error.message).toContain('x'.repeat(64));
    expect(error.message).not.toContain('x'.repeat(65));
  });

  it('refuses, rather than throws on, a channel that cannot be turned into a string', async () => {
    // A prototype-less object has no toString; String() of it throws a TypeError.
    const result = await dispatch(handlers, Object.create(null), {}).catch((cause: Error) => cause);
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden-channel' } });
  });
});

describe('dispatch: payload validation', () => {
  it.each([
    ['a number path', { path: 42 }, /path: .*expected string/],
    ['an extra key', { path: '/tmp/project', extra: 1 }, /"extra"/],
    ['an empty path', { path: '' }, /path: path is empty/],
    ['a NUL byte', { path: '/tmp/a\0b' }, /path: path contains a NUL byte/],
    ['no path at all', {}, /path: /],
    ['a string instead of an object', 'just a string', /expected object/],
  ])('refuses %s as invalid-request naming the field, without calling the handler', async (_label, payload, detail) => {
    const { handlers: recording, calls } = recordingOpen();
    const error = errorOf(await dispatch(recording, 'project:open', payload));
    expect(error.code).toBe('invalid-request');
    expect(error.message).toContain('project:open');
    expect(error.message).toMatch(detail);
    expect(calls).toHaveLength(0);
  });

  it('refuses extra keys on an empty request', async () => {
    const error = errorOf(await dispatch(handlers, 'app:info', { sneaky: true }));
    expect(error.code).toBe('invalid-request');
    expect(error.message).toContain('"sneaky"');
  });

  it('treats a missing payload as the empty request', async () => {
    expect(await dispatch(handlers, 'app:info', undefined)).toEqual({ ok: true, value: { version: '9.9.9', host: 'browser' } });
  });
});

describe('dispatch: handlers', () => {
  it('passes a valid request, as parsed, to the handler and returns its Result', async () => {
    const { handlers: recording, calls } = recordingOpen();
    const result = await dispatch(recording, 'project:open', { path: '/tmp/project' });
    expect(calls).toEqual([{ path: '/tmp/project' }]);
    expect(errorOf(result).code).toBe('recorded');
  });

  it('returns the real app:info answer', async () => {
    expect(await dispatch(handlers, 'project:current', {})).toEqual({ ok: true, value: null });
    expect(await dispatch(handlers, 'app:info', {})).toEqual({ ok: true, value: { version: '9.9.9', host: 'browser' } });
  });

  it('app:badge: the desktop host puts the count on its icon; a host without one says it is not shown; a bad count is refused', async () => {
    expect(await dispatch(handlers, 'app:badge', { count: 3 })).toEqual({ ok: true, value: { shown: false } });
    const counts: number[] = [];
    const desktop = createHandlers(new Workbench({ host: 'electron', version: '9.9.9', configDir: '/nowhere', setBadge: (count) => counts.push(count) > 0 }));
    expect(await dispatch(desktop, 'app:badge', { count: 3 })).toEqual({ ok: true, value: { shown: true } });
    expect(await dispatch(desktop, 'app:badge', { count: 0 })).toEqual({ ok: true, value: { shown: true } });
    for (const count of [-1, 1.5, 10_000, '2']) expect(errorOf(await dispatch(desktop, 'app:badge', { count })).code).toBe('invalid-request');
    expect(counts).toEqual([3, 0]);
  });

  it('turns an async throw into an internal error Result', async () => {
    const throwing: Handlers = { ...handlers, 'project:reload': async () => Promise.reject(new Error('disk on fire')) };
    const error = errorOf(await dispatch(throwing, 'project:reload', {}));
    expect(error).toEqual({ code: 'internal', message: expect.stringContaining('disk on fire') });
    expect(error.message).toContain('project:reload');
  });

  it('turns a synchronous throw into an internal error Result', async () => {
    const throwing: Handlers = {
      ...handlers,
      'project:reload': () => {
        throw new Error('sync failure');
      },
    };
    const error = errorOf(await dispatch(throwing, 'project:reload', {}));
    expect(error.code).toBe('internal');
    expect(error.message).toContain('sync failure');
  });

  it.each([[null], [undefined], ['a bare string']])('turns a throw of %j into an internal error Result, never a rejection', async (thrown) => {
    const throwing: Handlers = { ...handlers, 'project:reload': async () => Promise.reject(thrown) };
    const result = await dispatch(throwing, 'project:reload', {}).catch((cause: Error) => cause);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});
