/**
 * The Workbench's branch channels over the real branch service and the embedded PGlite provider,
 * in a real git repository: what the renderer receives for list, create (progress events, a URL
 * with no password), diff and delete, and the git branch really made and removed.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchProgressEvent } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { initProject } from '../project/init';
import { createHandlers, type Handlers } from './handlers';
import { Workbench } from './workbench';

let base: string;
let root: string;
let workbench: Workbench;
let handlers: Handlers;
const events: BranchProgressEvent[] = [];

const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: 'pipe' });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-branches-real-'));
  root = join(base, 'shop');
  await mkdir(root);
  git('init', '-b', 'main');
  git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '--allow-empty', '-m', 'first');
  const init = await initProject(root);
  if (!init.ok) throw new Error(init.error.message);
  const file = join(root, '.baton', 'project.json');
  const settings = JSON.parse(await readFile(file, 'utf8'));
  // No warm copies (they would keep copying after the test); servers exit a minute after last use.
  await writeFile(file, JSON.stringify({ ...settings, branches: { poolSize: 0, pglite: { idleSeconds: 60 } } }));
  workbench = new Workbench({
    host: 'browser',
    version: '0.0.0',
    configDir: join(base, 'config'),
    env: { ...process.env, BATON_DATA_DIR: join(base, 'data') },
  });
  workbench.onEvent((event, payload) => {
    if (event === 'branches:progressed') events.push(payload as BranchProgressEvent);
  });
  handlers = createHandlers(workbench);
  const opened = await handlers['project:open']({ path: root });
  if (!opened.ok) throw new Error(opened.error.message);
}, 60_000);

afterAll(async () => {
  await workbench?.close();
  await rm(base, { recursive: true, force: true });
}, 30_000);

const valueOf = <T>(result: Result<T>): T => {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
};

describe('branch channels on the real service (pglite)', () => {
  it('lists the tier, creates a pair with progress, diffs it, deletes it', async () => {
    const listed = valueOf(await handlers['branches:list']({}));
    expect(listed.provider).toBe('pglite');
    expect(listed.pairs.map((p) => [p.name, p.kind, p.tier])).toEqual([['main', 'tier', 'production']]);
    expect(valueOf(await handlers['branches:status']({}))).toMatchObject({ provider: 'pglite', state: 'ready' });

    const created = valueOf(await handlers['branches:create']({ opId: 'op-create', gitBranch: 'feature/login' }));
    expect(created).toMatchObject({ name: 'feature-login', gitBranch: 'feature/login', database: 'feature-login', parent: 'main' });
    expect(['', '***']).toContain(new URL(created.connectionUrl).password);
    const mine = events.filter((e) => e.opId === 'op-create');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.event.op !== undefined)).toBe(true);
    expect(git('branch', '--list', 'feature/login')).toContain('feature/login');

    const pairs = valueOf(await handlers['branches:list']({})).pairs;
    expect(pairs.find((p) => p.name === 'feature-login')).toMatchObject({
      gitBranch: 'feature/login',
      parent: 'main',
      kind: 'feature',
      database: { provider: 'pglite', depth: 1 },
    });

    expect(valueOf(await handlers['branches:diff']({ opId: 'op-diff', name: 'feature-login' }))).toMatchObject({
      branch: 'feature-login',
      parent: 'main',
      changes: [],
    });

    const refused = await handlers['branches:delete']({ opId: 'op-del-main', name: 'main' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'protected' } });

    expect(valueOf(await handlers['branches:delete']({ opId: 'op-delete', name: 'feature-login' }))).toEqual({ name: 'feature-login' });
    expect(valueOf(await handlers['branches:list']({})).pairs.map((p) => p.name)).toEqual(['main']);
    expect(git('branch', '--list', 'feature/login').trim()).toBe('');
  }, 180_000);
});
