/**
 * The Workbench's branch wiring on real Baton projects in real git repositories. The branch
 * service itself is a recording stand-in here: these tests are about what main does around it
 * (opening it lazily with the project's settings, one AbortController per opId, progress as
 * events, errors as Results with no password, closing on project change), and need to hold an
 * operation open at a chosen moment. The real service is exercised by branches-real.test.ts and the
 * browser e2e spec.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchCreated, BranchListView, BranchPairView, SchemaDiff } from '../../shared/branches';
import type { BranchProgressEvent } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { BranchError, type BranchProvider, type CallOptions } from '../branches/provider';
import type { Adopted } from '../branches/service-adopt';
import type { BranchService, BranchServiceOptions } from '../branches/service-api';
import { initProject } from '../project/init';
import { Workbench, type WorkbenchOptions } from './workbench';

let base: string;
let count = 0;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-branches-wb-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function batonRepo(): Promise<string> {
  const root = join(base, `repo-${++count}`);
  await mkdir(root, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'pipe' });
  git('init', '-b', 'main');
  git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '--allow-empty', '-m', 'first');
  const init = await initProject(root);
  if (!init.ok) throw new Error(init.error.message);
  return root;
}

const SECRET = 's3cr3t-pw';

/** A branch service whose operations the test scripts; it records every call and each close. */
class ScriptedService implements BranchService {
  readonly kind = 'pglite' as const;
  said: string[] = [];
  readonly prefix = '';
  readonly provider = { kind: 'pglite', experimental: false } as unknown as BranchProvider;
  closed = 0;
  gate: Promise<void> = Promise.resolve();
  signals: AbortSignal[] = [];
  failWith: unknown = null;
  created: (CallOptions & { parent?: string; ttlHours?: number | null })[] = [];

  async list(): Promise<BranchListView> {
    return { provider: 'pglite', experimental: false, pairs: [] };
  }
  async create(gitBranch: string, options: CallOptions & { parent?: string; ttlHours?: number | null } = {}): Promise<BranchCreated> {
    this.signals.push(options.signal!);
    this.created.push(options);
    options.onProgress?.({ kind: 'branch.step', op: 'create', name: gitBranch, step: `copying from postgres://baton:${SECRET}@127.0.0.1:5999/main` });
    await this.wait(options.signal);
    if (this.failWith) throw this.failWith;
    return {
      name: 'feature-login',
      gitBranch,
      database: 'feature-login',
      parent: options.parent ?? 'main',
      connectionUrl: `postgresql://baton:${SECRET}@127.0.0.1:5999/feature-login`,
      createdMs: 12,
      worktree: '/wt/feature-login',
      masked: false,
    };
  }
  warnings(): string[] {
    return this.said;
  }
  async adopt(database: string, gitBranch: string): Promise<Adopted> {
    return { name: database, gitBranch, replaced: null };
  }
  async delete(_name: string, options: CallOptions = {}): Promise<void> {
    this.signals.push(options.signal!);
    await this.wait(options.signal);
  }
  async reset(): Promise<BranchPairView> {
    throw new BranchError('protected', '"main" is a production tier: tiers are never reset.');
  }
  async diff(name: string): Promise<SchemaDiff> {
    return { branch: name, parent: 'main', changes: [] };
  }
  migrationStatus(): never {
    throw new Error('not scripted');
  }
  migrate(): never {
    throw new Error('not used');
  }
  async connectionUrl(name: string): Promise<string> {
    return `postgresql://baton:${SECRET}@127.0.0.1:5999/${name}`;
  }
  async gc(options: CallOptions & { dryRun: boolean }) {
    return { dryRun: options.dryRun, removed: [], kept: [], leftovers: [] };
  }
  isProtected(): boolean {
    return false;
  }
  async close(): Promise<void> {
    this.closed += 1;
  }
  /** Holds the operation until `gate` settles, or throws `cancelled` when the signal aborts first. */
  private async wait(signal?: AbortSignal): Promise<void> {
    await Promise.race([
      this.gate,
      new Promise<never>((_, reject) =>
        signal?.addEventListener('abort', () => reject(new BranchError('cancelled', 'Creating was cancelled; nothing was left half-made.'))),
      ),
    ]);
  }
}

function bench(extra: Partial<WorkbenchOptions> = {}) {
  const opened: BranchServiceOptions[] = [];
  const services: ScriptedService[] = [];
  let openFailure: unknown = null;
  const events: BranchProgressEvent[] = [];
  const workbench = new Workbench({
    host: 'browser',
    version: '0.0.0',
    configDir: join(base, `config-${++count}`),
    openBranchService: async (options) => {
      opened.push(options);
      if (openFailure) throw openFailure;
      const service = new ScriptedService();
      services.push(service);
      return service;
    },
    ...extra,
  });
  workbench.onEvent((event, payload) => {
    if (event === 'branches:progressed') events.push(payload as BranchProgressEvent);
  });
  return { workbench, opened, services, events, failOpen: (cause: unknown) => (openFailure = cause) };
}

const valueOf = <T>(result: Result<T>): T => {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
};
const errorOf = (result: Result<unknown>) => {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
};

describe('Workbench branches: opening', () => {
  it('opens the service on first use only, with the project root and its project.json settings', async () => {
    const root = await batonRepo();
    const { workbench, opened, services } = bench();
    valueOf(await workbench.open(root));
    expect(valueOf(await workbench.branchStatus())).toEqual({ provider: 'pglite', experimental: false, state: 'idle', message: null, warnings: [] });
    expect(opened).toHaveLength(0);

    valueOf(await workbench.listBranches());
    valueOf(await workbench.listBranches());
    expect(opened).toHaveLength(1);
    expect(opened[0]!.root).toBe(root);
    // What the open provider warns of (a warm pool that cannot refill) reaches the top bar's status.
    services[0]!.said = ['The warm pool could not be refilled (disk full).'];
    expect(valueOf(await workbench.branchStatus())).toMatchObject({ state: 'ready', warnings: ['The warm pool could not be refilled (disk full).'] });
    expect(opened[0]!.settings).toEqual(JSON.parse(await readFile(join(root, '.baton', 'project.json'), 'utf8')));
    expect(valueOf(await workbench.branchStatus()).state).toBe('ready');
    await workbench.close();
  });

  it('reopens the service when project.json changes, closing the old one', async () => {
    const root = await batonRepo();
    const { workbench, opened, services } = bench();
    valueOf(await workbench.open(root));
    valueOf(await workbench.listBranches());
    const file = join(root, '.baton', 'project.json');
    const settings = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...settings, branches: { poolSize: 3 } }));
    valueOf(await workbench.listBranches());
    expect(opened.map((o) => o.settings.branches?.poolSize ?? null)).toEqual([null, 3]);
    expect(services[0]!.closed).toBe(1);
    await workbench.close();
  });

  it('reports a failed open as a Result and in the status, and tries again on the next call', async () => {
    const root = await batonRepo();
    const { workbench, opened, failOpen } = bench();
    valueOf(await workbench.open(root));
    failOpen(new BranchError('unreachable', `The server at postgresql://admin:${SECRET}@db:5432/postgres did not answer. Start it, then retry.`));
    const error = errorOf(await workbench.listBranches());
    expect(error.code).toBe('unreachable');
    expect(error.message).toContain('postgresql://admin:***@db:5432/postgres');
    expect(error.message).not.toContain(SECRET);
    expect(valueOf(await workbench.branchStatus())).toMatchObject({ state: 'failed', message: error.message });
    failOpen(null);
    valueOf(await workbench.listBranches());
    expect(opened).toHaveLength(2);
    await workbench.close();
  });

  it.each([
    [
      'a Consort project',
      async () => {
        const root = join(base, `consort-${++count}`);
        await mkdir(join(root, '.consort', 'features', 'F1'), { recursive: true });
        await writeFile(join(root, '.consort', 'features', 'F1', 'feature-spec.json'), JSON.stringify({ feature_id: 'F1', name: 'x' }));
        return root;
      },
      /Consort project/,
    ],
    [
      'a Baton project outside git',
      async () => {
        const root = await batonRepo();
        await rm(join(root, '.git'), { recursive: true, force: true });
        return root;
      },
      /not inside a git repository/,
    ],
  ])('refuses %s with a clear reason and never opens a service', async (_label, make, detail) => {
    const { workbench, opened } = bench();
    valueOf(await workbench.open(await make()));
    const error = errorOf(await workbench.listBranches());
    expect(error.code).toBe('unavailable');
    expect(error.message).toMatch(/^Branches need a Baton project in a git repository/);
    expect(error.message).toMatch(detail);
    expect(valueOf(await workbench.branchStatus())).toMatchObject({ provider: null, state: 'unavailable' });
    expect(opened).toHaveLength(0);
    await workbench.close();
  });
});

describe('Workbench branches: operations', () => {
  it('redacts the created URL and forwards progress under the opId, redacted too', async () => {
    const root = await batonRepo();
    const { workbench, events } = bench();
    valueOf(await workbench.open(root));
    const created = valueOf(await workbench.createBranch({ opId: 'op-1', gitBranch: 'feature/login', parent: 'main' }));
    expect(created.connectionUrl).toBe('postgresql://baton:***@127.0.0.1:5999/feature-login');
    expect(created.parent).toBe('main');
    expect(events).toEqual([
      { opId: 'op-1', event: { kind: 'branch.step', op: 'create', name: 'feature/login', step: 'copying from postgres://baton:***@127.0.0.1:5999/main' } },
    ]);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    await workbench.close();
  });

  it('cancels the operation its opId names, and only that one', async () => {
    const root = await batonRepo();
    const { workbench, services } = bench();
    valueOf(await workbench.open(root));
    valueOf(await workbench.listBranches());
    const service = services[0]!;
    service.gate = new Promise(() => undefined);
    const creating = workbench.createBranch({ opId: 'op-a', gitBranch: 'feature/a' });
    const deleting = workbench.deleteBranch({ opId: 'op-b', name: 'feature-b' });
    await expect.poll(() => service.signals.length).toBe(2);

    expect(errorOf(await workbench.createBranch({ opId: 'op-a', gitBranch: 'feature/other' })).code).toBe('busy');
    expect(workbench.cancelBranchOp('op-a')).toEqual({ cancelled: true });
    expect(errorOf(await creating)).toEqual({ code: 'cancelled', message: 'Creating was cancelled; nothing was left half-made.' });
    // The two operations reach the service in either order: exactly one of them was aborted.
    expect(service.signals.map((s) => s.aborted).sort()).toEqual([false, true]);
    expect(workbench.cancelBranchOp('op-a')).toEqual({ cancelled: false });

    workbench.cancelBranchOp('op-b');
    expect(errorOf(await deleting).code).toBe('cancelled');
    expect(service.signals.every((s) => s.aborted)).toBe(true);
    await workbench.close();
  });

  it('carries a BranchError code and words, and names what failed for any other error', async () => {
    const root = await batonRepo();
    const { workbench, services } = bench();
    valueOf(await workbench.open(root));
    expect(errorOf(await workbench.resetBranch({ opId: 'op-1', name: 'main' }))).toEqual({
      code: 'protected',
      message: '"main" is a production tier: tiers are never reset.',
    });
    services[0]!.failWith = new Error(`connect ECONNREFUSED postgres://u:${SECRET}@h/db password=${SECRET}`);
    const error = errorOf(await workbench.createBranch({ opId: 'op-2', gitBranch: 'feature/x' }));
    expect(error.code).toBe('failed');
    expect(error.message).toMatch(/^Creating feature\/x failed: connect ECONNREFUSED postgres:\/\/u:\*\*\*@h\/db password=\*\*\*$/);
    await workbench.close();
  });

  it('closes the service and aborts what runs when another project opens, and on close', async () => {
    const first = await batonRepo();
    const second = await batonRepo();
    const { workbench, services } = bench();
    valueOf(await workbench.open(first));
    valueOf(await workbench.listBranches());
    services[0]!.gate = new Promise(() => undefined);
    const running = workbench.createBranch({ opId: 'op-1', gitBranch: 'feature/slow' });
    await expect.poll(() => services[0]!.signals.length).toBe(1);

    valueOf(await workbench.open(second));
    expect(errorOf(await running).code).toBe('cancelled');
    await expect.poll(() => services[0]!.closed).toBe(1);

    valueOf(await workbench.listBranches());
    expect(services).toHaveLength(2);
    // A reload of the same project keeps its service.
    valueOf(await workbench.reload());
    valueOf(await workbench.listBranches());
    expect(services).toHaveLength(2);
    await workbench.close();
    expect(services[1]!.closed).toBe(1);
  });
});

describe("a host's own branch options (the CLI's)", () => {
  it('open the service with its provider and URL, give new pairs its time-to-live, and reach gc and the real URL', async () => {
    const { workbench, opened, services } = bench({ branches: { provider: 'postgres', postgresUrl: 'postgresql://admin@db/postgres', ttlHours: null } });
    await workbench.open(await batonRepo());
    expect(valueOf(await workbench.branchStatus()).provider).toBe('postgres');
    valueOf(await workbench.createBranch({ opId: 'op-1', gitBranch: 'feature/login' }));
    expect(opened[0]).toMatchObject({ provider: 'postgres', postgresUrl: 'postgresql://admin@db/postgres' });
    expect(services[0]!.created[0]).toMatchObject({ ttlHours: null });
    expect(valueOf(await workbench.collectBranches({ opId: 'op-2', dryRun: true }))).toMatchObject({ dryRun: true });
    // Only a host that asks by name gets the password: the channels never do.
    expect(valueOf(await workbench.branchUrl({ opId: 'op-3', name: 'feature-login' }))).toContain(SECRET);
    await workbench.close();
  });

  it('are not there for a host that sets none', async () => {
    const { workbench, opened, services } = bench();
    await workbench.open(await batonRepo());
    valueOf(await workbench.createBranch({ opId: 'op-1', gitBranch: 'feature/login' }));
    expect(opened[0]).not.toHaveProperty('provider');
    expect(opened[0]).not.toHaveProperty('postgresUrl');
    expect(services[0]!.created[0]).not.toHaveProperty('ttlHours');
    await workbench.close();
  });
});
