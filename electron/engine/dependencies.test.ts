/**
 * Dependency requests end to end, with a real npm against a registry on loopback: the Driver asks
 * in words, the orchestrator installs, amends the locked manifest and lockfile on the record, the
 * tests see the package, later items are not blamed for the amended manifest, a repair round
 * carries an earlier attempt's amendment, bad requests are refused with the reason, and the
 * acceptance evidence lists what was added.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import type { RunSummary } from '../../shared/run';
import { formatEvidence } from '../cli/evidence-format';
import { evidenceSummary } from '../gates/proof';
import { verifyChain } from '../ledger';
import { readProject } from '../project';
import { makeTempDir, removeDir, writeTree } from '../project/temp-project.fixture';
import type { CycleDeps } from './cycle-deps';
import { dependenciesFor, gatherLaneDependencies, honourRequests, laneDependenciesDir } from './dependencies';
import type { CycleProject } from './cycle-project.fixture';
import { runDependencyProject, type DependencyRun } from './dependencies.fixture';
import { startRegistry, type FakeRegistry } from './npm-registry.fixture';

const exec = promisify(execFile);
describe('dependency requests (a real npm, a registry on loopback, one run)', () => {
  let run: DependencyRun;
  let project: CycleProject;
  let registry: FakeRegistry;
  let summary: RunSummary;
  let records: LedgerRecord[];
  const deps = (item: string) => recordsOf(records, RECORD_TYPES.cycleDependencies).filter((r) => r.subject.item === item);

  beforeAll(async () => {
    run = await runDependencyProject();
    ({ project, registry, summary, records } = run);
  }, 600_000);
  afterAll(() => run?.close());

  it('every item goes GREEN, and no one is blamed for the amended manifest', () => {
    expect(summary.items).toEqual({ total: 3, byStatus: { green: 3 } });
    expect(recordsOf(records, RECORD_TYPES.cycleViolation)).toEqual([]);
  });

  it('the install is recorded: what was asked, the version installed, the manifest and lockfile as rewritten', async () => {
    const [t1] = deps('T1');
    expect(t1!.data.installed).toEqual([{ name: 'tiny-pad', spec: '^1.0.0', dev: false, version: '1.0.0' }]);
    expect(t1!.data.refused).toEqual([]);
    expect(t1!.data.files.map((f) => f.path)).toEqual(['package.json', 'package-lock.json']);
    expect(t1!.blobs.map((b) => b.name)).toEqual(expect.arrayContaining(['amended/package.json', 'amended/package-lock.json', 'dependencies/npm.log']));
    expect(registry.requests).toContain('/tiny-pad');
    expect(run.live).toContain('[baton] installed tiny-pad@^1.0.0 (1.0.0) as the Driver asked');
  });

  it('the GREEN commit holds the manifest and lockfile with the packages (a repair carried its first attempt’s request)', async () => {
    const greened = recordsOf(records, RECORD_TYPES.cycleGreened).at(-1)!;
    const show = async (file: string) => (await exec('git', ['show', `${greened.data.commit}:${file}`], { cwd: project.root })).stdout;
    const manifest = JSON.parse(await show('package.json')) as { dependencies: object; devDependencies: object; scripts: object };
    expect(manifest.dependencies).toEqual({ 'tiny-pad': '^1.0.0' });
    expect(manifest.devDependencies).toEqual({ 'tiny-sum': '^2.0.0' });
    expect(manifest.scripts).toBeDefined();
    const lock = JSON.parse(await show('package-lock.json')) as { packages: Record<string, { version?: string; dev?: boolean }> };
    expect(lock.packages['node_modules/tiny-pad']?.version).toBe('1.0.0');
    expect(lock.packages['node_modules/tiny-sum']).toMatchObject({ version: '2.0.0', dev: true });
    const t3 = recordsOf(records, RECORD_TYPES.cycleGreen).filter((r) => r.subject.item === 'T3');
    expect(t3.map((r) => r.data.verdict)).toEqual(['failing', 'green']);
    expect(deps('T3').map((r) => r.data.installed.map((d) => d.name))).toEqual([['tiny-sum']]);
  });

  it('a URL, a path, a git reference or a malformed line is refused with the reason, never installed', () => {
    const [t2] = deps('T2');
    expect(t2!.data.installed).toEqual([]);
    expect(t2!.data.files).toEqual([]);
    expect(t2!.data.refused.map((r) => r.why)).toEqual([
      '"file:../../etc" is not a version, range or tag (URLs, paths, git and aliases are not installed)',
      '"git+https://example.com/x.git" is not a registry package name',
      '"Not_A_Name" is not a registry package name',
      'expected one package, as BATON-DEPENDENCY: name@^1.2.0 (optionally --dev)',
    ]);
    expect(registry.requests.some((p) => /evil|git|Not_A_Name/.test(p))).toBe(false);
    expect(run.live).toContain('[baton] refused "BATON-DEPENDENCY: evil@file:../../etc": ');
  });

  it('the acceptance evidence shows the PO each package added, its item and record; the ledger verifies', async () => {
    const view = await readProject(project.root);
    if (!view.ok) throw new Error(view.error.message);
    const evidence = evidenceSummary(view.value.features[0]!, records, 'S-1');
    expect(evidence.dependencies.map((d) => [d.item, d.name, d.spec, d.version, d.dev])).toEqual([
      ['T1', 'tiny-pad', '^1.0.0', '1.0.0', false],
      ['T3', 'tiny-sum', '^2.0.0', '2.0.0', true],
    ]);
    expect(formatEvidence(evidence)).toContain(`Dependency added: tiny-pad@^1.0.0 (1.0.0) for T1 · record #${deps('T1')[0]!.seq}`);
    expect((await verifyChain(join(project.root, '.baton', 'ledger'))).problems).toEqual([]);
  });
});

describe('requests that are declined before or by npm', () => {
  let dir: string;
  let registry: FakeRegistry;
  const saved = process.env.npm_config_registry;
  beforeAll(async () => {
    dir = await makeTempDir('baton-deps-');
    registry = await startRegistry([]);
    process.env.npm_config_registry = registry.url;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.npm_config_registry;
    else process.env.npm_config_registry = saved;
    await registry.close();
    await removeDir(dir);
  });
  const cycleDeps = (settings: object) => ({ root: dir, settings, dependenciesDir: join(dir, 'deps') }) as unknown as CycleDeps;
  const worktree = async (files: Record<string, string>) => {
    const w = await makeTempDir('baton-deps-wt-');
    await writeTree(w, files);
    return w;
  };

  it('"dependencyRequests": "refuse" declines, and says where the setting is', async () => {
    const out = await honourRequests(cycleDeps({ dependencyRequests: 'refuse' }), await worktree({ 'package.json': '{}' }), 'green', 'BATON-DEPENDENCY: x@1');
    expect(out!.installed).toEqual([]);
    expect(out!.refused).toEqual([{ line: 'x@1', why: expect.stringContaining('"dependencyRequests" is "refuse" in .baton/project.json') }]);
  });

  it('a project on another package manager, or with no package.json, is told to add the package itself', async () => {
    const pnpm = await honourRequests(cycleDeps({}), await worktree({ 'package.json': '{}', 'pnpm-lock.yaml': '' }), 'green', 'BATON-DEPENDENCY: x@1');
    expect(pnpm!.refused[0]!.why).toBe('this project uses pnpm (pnpm-lock.yaml); Baton installs requested packages with npm only: add it yourself');
    const python = await honourRequests(cycleDeps({}), await worktree({ 'pyproject.toml': '' }), 'green', 'BATON-DEPENDENCY: x@1');
    expect(python!.refused[0]!.why).toMatch(/npm projects \(a package.json\) only/);
  });

  it('outside GREEN (a refactor) a request is declined; a turn that asks nothing gets no record', async () => {
    const w = await worktree({ 'package.json': '{}' });
    expect((await honourRequests(cycleDeps({}), w, 'refactor', 'BATON-DEPENDENCY: x@1'))!.refused[0]!.why).toMatch(/GREEN turns/);
    expect(await honourRequests(cycleDeps({}), w, 'green', 'All done.')).toBeNull();
  });

  it('a package the registry does not have is refused with npm’s words, and the manifest is left as it was', async () => {
    const w = await worktree({ 'package.json': '{\n  "name": "app"\n}\n' });
    const out = await honourRequests(cycleDeps({}), w, 'green', 'BATON-DEPENDENCY: no-such-package@^1.0.0');
    expect(out!.installed).toEqual([]);
    expect(out!.refused[0]!.why).toMatch(/^npm could not install it: .*(404|Not Found)/);
    expect(await readFile(join(w, 'package.json'), 'utf8')).toBe('{\n  "name": "app"\n}\n');
  });
});

describe('dependency folders per lane (issue 30)', () => {
  let dir: string;
  let registry: FakeRegistry;
  const saved = process.env.npm_config_registry;
  beforeAll(async () => {
    dir = await makeTempDir('baton-lane-deps-');
    registry = await startRegistry([{ name: 'lane-pad', version: '1.0.0', files: { 'index.js': 'module.exports = 1;\n' } }]);
    process.env.npm_config_registry = registry.url;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.npm_config_registry;
    else process.env.npm_config_registry = saved;
    await registry.close();
    await removeDir(dir);
  });

  it('a package one lane installs is invisible to the other lane’s runs, and gathered for the merged feature', async () => {
    const feature = join(dir, 'deps');
    const lanes = [['S-1'], ['S-2']];
    const folder = (lane: string[], merged: string[] = []) => laneDependenciesDir(feature, lanes, lane, new Set(merged));
    const cycleDeps = (dependenciesDir: string) => ({ root: dir, settings: {}, dependenciesDir, emit: () => undefined }) as unknown as CycleDeps;
    const sees = (dependenciesDir: string) => existsSync(join(dependenciesFor(cycleDeps(dependenciesDir)), 'lane-pad', 'index.js'));
    // Lanes apart each have a folder; one lane, or a lane already merged, builds with the feature's.
    expect(folder(['S-1'])).not.toBe(folder(['S-2']));
    expect(laneDependenciesDir(feature, [['S-1', 'S-2']], ['S-1', 'S-2'], new Set())).toBe(feature);
    expect(folder(['S-2'], ['S-2'])).toBe(feature);
    const worktree = await makeTempDir('baton-lane-deps-wt-');
    await writeTree(worktree, { 'package.json': '{\n  "name": "app"\n}\n' });
    const out = await honourRequests(cycleDeps(folder(['S-1'])), worktree, 'green', 'BATON-DEPENDENCY: lane-pad@^1.0.0');
    expect(out!.installed.map((d) => d.name)).toEqual(['lane-pad']);
    expect([sees(folder(['S-1'])), sees(folder(['S-2'])), sees(feature)]).toEqual([true, false, false]);
    // Merged, the feature's folder has every lane's packages; gathering again has nothing to do.
    await gatherLaneDependencies(cycleDeps(feature));
    expect(sees(feature)).toBe(true);
    const asked = registry.requests.length;
    await gatherLaneDependencies(cycleDeps(feature));
    expect(registry.requests.length).toBe(asked);
    await removeDir(worktree);
  }, 120_000);
});
