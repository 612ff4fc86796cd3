import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childEnv } from './child-env';

/** Secrets and Baton's own variables, set in this process for the test and restored after. */
const PLANTED: Record<string, string> = {
  NEON_API_KEY: 'neon-secret',
  DATABRICKS_TOKEN: 'dapi-secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  AWS_ACCESS_KEY_ID: 'AKIA-secret',
  BATON_SIGNING_KEY: 'baton-secret',
  BATON_DATA_DIR: '/home/me/.baton',
  GITHUB_TOKEN: 'ghp-secret',
  DATABASE_URL: 'postgres://admin:pw@db/prod',
  NODE_OPTIONS: '--import /tmp/evil.mjs',
  SOME_RANDOM_VAR: 'x',
  LANG: 'fr_FR.UTF-8',
  TZ: 'Europe/Paris',
};

describe('childEnv: an allow-list and a private HOME', () => {
  const saved = new Map<string, string | undefined>();
  beforeEach(() => {
    for (const [name, value] of Object.entries({ ...PLANTED, HOME: '/home/me', PATH: '/usr/local/bin:/usr/bin:/bin' })) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
  });
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    saved.clear();
  });

  it('from process.env: secrets, Baton’s variables and anything unlisted are dropped; PATH and the locale are kept', () => {
    const env = childEnv({ home: '/tmp/private-home' });
    for (const name of [
      'NEON_API_KEY',
      'DATABRICKS_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_ACCESS_KEY_ID',
      'BATON_SIGNING_KEY',
      'BATON_DATA_DIR',
      'GITHUB_TOKEN',
      'DATABASE_URL',
      'NODE_OPTIONS',
      'SOME_RANDOM_VAR',
    ]) {
      expect(env[name], name).toBeUndefined();
    }
    expect(env.PATH).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(env.LANG).toBe('fr_FR.UTF-8');
    expect(env.TZ).toBe('Europe/Paris');
    expect(env.HOME).toBe('/tmp/private-home');
    expect([env.CI, env.FORCE_COLOR, env.NO_COLOR]).toEqual(['1', '0', '1']);
    expect(Object.values(env).some((v) => /secret|\/home\/me/.test(v ?? ''))).toBe(false);
  });

  it('exactly the allow-list and the fixed variables, from a given source', () => {
    const from = {
      PATH: '/bin',
      USER: 'me',
      SHELL: '/bin/sh',
      TERM: 'xterm',
      LC_ALL: 'C',
      HOME: '/home/me',
      TMPDIR: '/home/me/tmp',
      SSH_AUTH_SOCK: '/run/agent',
    };
    expect(childEnv({ home: '/h', from })).toEqual({
      PATH: '/bin',
      USER: 'me',
      SHELL: '/bin/sh',
      TERM: 'xterm',
      LC_ALL: 'C',
      HOME: '/h',
      CI: '1',
      FORCE_COLOR: '0',
      NO_COLOR: '1',
    });
  });

  it('`pass` lets a named variable through, and only that one; a missing one stays absent', () => {
    const env = childEnv({ home: '/h', pass: ['NEON_API_KEY', 'NOT_SET_ANYWHERE_XYZ'] });
    expect(env.NEON_API_KEY).toBe('neon-secret');
    expect(env.DATABRICKS_TOKEN).toBeUndefined();
    expect('NOT_SET_ANYWHERE_XYZ' in env).toBe(false);
  });

  it('`pass` cannot bring back the real HOME; `extra` wins over everything', () => {
    expect(childEnv({ home: '/h', pass: ['HOME'] }).HOME).toBe('/h');
    const env = childEnv({
      home: '/h',
      pass: ['NEON_API_KEY'],
      extra: { DATABASE_URL: 'postgres://app@branch/db', NEON_API_KEY: 'override', CI: '0', PATH: '/only' },
    });
    expect([env.DATABASE_URL, env.NEON_API_KEY, env.CI, env.PATH]).toEqual(['postgres://app@branch/db', 'override', '0', '/only']);
  });

  it('does not change the source', () => {
    const from = { PATH: '/bin', NEON_API_KEY: 'k' };
    childEnv({ home: '/h', from, extra: { X: '1' } });
    expect(from).toEqual({ PATH: '/bin', NEON_API_KEY: 'k' });
    expect(process.env.NEON_API_KEY).toBe('neon-secret');
  });
});
