import { describe, expect, it } from 'vitest';
import { detectDefaults, projectSettingsSchema, type ProjectSettings, type RepoProbe } from './settings';

/**
 * A repository described as a map of files. Folders are entries with a null body: they exist but
 * cannot be read as text, which is what the real probe (readFile on a folder) answers.
 */
function repo(files: Record<string, string | null>): RepoProbe {
  return {
    name: 'shop',
    defaultBranch: 'trunk',
    readText: async (file) => files[file] ?? null,
    exists: (file) => Object.prototype.hasOwnProperty.call(files, file),
  };
}

const pkg = (body: Record<string, unknown>) => JSON.stringify(body, null, 2);

async function detect(files: Record<string, string | null>): Promise<ProjectSettings> {
  const settings = await detectDefaults(repo(files));
  // Whatever was detected, it is a valid project.json.
  expect(projectSettingsSchema.parse(settings)).toEqual(settings);
  return settings;
}

describe('detectDefaults: the test stack', () => {
  it('a node project with vitest reports vitest JSON', async () => {
    const settings = await detect({
      'package.json': pkg({ scripts: { test: 'vitest run' }, devDependencies: { vitest: '^4.0.0' } }),
      'vitest.config.ts': 'export default {}',
    });
    expect(settings).toMatchObject({
      testCommand: 'npm test',
      reportFormat: 'vitest-json',
      reportPath: 'reports/test-results.json',
      runnerConfigFiles: ['package.json', 'vitest.config.ts'],
    });
    // The agent writing code may not edit the runner's configuration.
    expect(settings.protectedPaths).toEqual(['.baton/**', '.git/**', 'package.json', 'vitest.config.ts']);
  });

  it('a node project with jest reports jest JSON', async () => {
    const settings = await detect({ 'package.json': pkg({ scripts: { test: 'jest' }, devDependencies: { jest: '^30.0.0' } }), 'jest.config.js': '' });
    expect(settings).toMatchObject({ testCommand: 'npm test', reportFormat: 'jest-json', runnerConfigFiles: ['package.json', 'jest.config.js'] });
  });

  it('a node project with vitest as a plain dependency still reports vitest JSON', async () => {
    const settings = await detect({ 'package.json': pkg({ scripts: { test: 'vitest run' }, dependencies: { vitest: '^4.0.0' } }) });
    expect(settings.reportFormat).toBe('vitest-json');
  });

  it('a plain node project falls back to JUnit', async () => {
    const settings = await detect({ 'package.json': pkg({ scripts: { test: 'node --test' } }) });
    expect(settings).toMatchObject({ testCommand: 'npm test', reportFormat: 'junit', reportPath: 'reports/junit.xml' });
  });

  it('a node project without a test script has no test command', async () => {
    const settings = await detect({ 'package.json': pkg({ name: 'shop', devDependencies: { vitest: '^4.0.0' } }) });
    expect(settings.testCommand).toBeNull();
    expect(settings.reportFormat).toBe('vitest-json');
  });

  it('an unparseable package.json is still a node project, without a test command', async () => {
    const settings = await detect({ 'package.json': '{ "scripts": ' });
    expect(settings).toMatchObject({ testCommand: null, reportFormat: 'junit', runnerConfigFiles: ['package.json'] });
  });

  it('a python project runs pytest with a JUnit report', async () => {
    const settings = await detect({ 'pyproject.toml': '[project]\nname = "shop"\n', 'conftest.py': '' });
    expect(settings).toMatchObject({
      testCommand: 'pytest --junitxml=reports/junit.xml',
      reportFormat: 'junit',
      reportPath: 'reports/junit.xml',
      runnerConfigFiles: ['pyproject.toml', 'conftest.py'],
    });
    expect(settings.testGlobs).toContain('**/test_*.py');
  });

  it('requirements.txt alone is enough to recognise python', async () => {
    expect((await detect({ 'requirements.txt': 'pytest\n' })).testCommand).toBe('pytest --junitxml=reports/junit.xml');
  });

  it('a go module runs go test', async () => {
    const settings = await detect({ 'go.mod': 'module example.com/shop\n' });
    expect(settings).toMatchObject({ testCommand: 'go test ./...', reportFormat: 'junit', testGlobs: ['**/*_test.go'], runnerConfigFiles: ['go.mod'] });
  });

  it('package.json wins over other stacks in the same repository', async () => {
    const settings = await detect({ 'package.json': pkg({ scripts: { test: 'vitest' } }), 'go.mod': 'module x\n' });
    expect(settings.testCommand).toBe('npm test');
  });

  it('nothing recognised: no test command, JUnit, and the generic globs', async () => {
    const settings = await detect({ 'README.md': '# shop' });
    expect(settings).toMatchObject({
      testCommand: null,
      reportFormat: 'junit',
      runnerConfigFiles: [],
      testGlobs: ['test/**', 'tests/**'],
      sourceGlobs: ['src/**'],
    });
  });
});

describe('detectDefaults: migrations', () => {
  it('node-pg-migrate as a dependency', async () => {
    const settings = await detect({ 'package.json': pkg({ dependencies: { 'node-pg-migrate': '^7.0.0' } }), migrations: null });
    expect(settings.migrations).toEqual({ tool: 'node-pg-migrate', path: 'migrations' });
  });

  it.each([['knexfile.js'], ['knexfile.ts']])('knex from %s', async (knexfile) => {
    const settings = await detect({ [knexfile]: 'module.exports = {}' });
    expect(settings.migrations).toEqual({ tool: 'knex', path: 'migrations' });
  });

  it.each([['migrations'], ['db/migrations'], ['sql/migrations']])('plain SQL in a %s/ folder', async (folder) => {
    const settings = await detect({ 'go.mod': 'module x\n', [folder]: null });
    expect(settings.migrations).toEqual({ tool: 'sql', path: folder });
    // The driver may write migrations; the navigator (tests) may not.
    expect(settings.writeScopes.driver).toContain(`${folder}/**`);
    expect(settings.writeScopes.navigator).not.toContain(`${folder}/**`);
  });

  it('none', async () => {
    const settings = await detect({ 'package.json': pkg({ scripts: { test: 'vitest' } }) });
    expect(settings.migrations).toBeNull();
    expect(settings.writeScopes.driver).toEqual(['src/**', 'lib/**']);
  });
});

describe('detectDefaults: the rest of project.json', () => {
  it('takes the name and branch from the probe and starts every role scripted on pglite', async () => {
    const settings = await detect({});
    expect(settings).toMatchObject({ version: 1, name: 'shop', defaultBranch: 'trunk', branchProvider: 'pglite', repairBudget: 3, masking: null });
    expect(Object.keys(settings.agents)).toHaveLength(7);
    expect(new Set(Object.values(settings.agents))).toEqual(new Set(['scripted']));
  });

  it('the schema refuses a settings file that breaks its rules', () => {
    const good = {
      version: 1,
      name: 'x',
      defaultBranch: 'main',
      branchProvider: 'pglite',
      testCommand: null,
      reportFormat: 'junit',
      reportPath: null,
      testGlobs: [],
      runnerConfigFiles: [],
      sourceGlobs: [],
      migrations: null,
      protectedPaths: [],
      writeScopes: {},
      agents: {},
      repairBudget: 3,
      masking: null,
    };
    expect(projectSettingsSchema.safeParse(good).success).toBe(true);
    expect(projectSettingsSchema.safeParse({ ...good, version: 2 }).success).toBe(false);
    expect(projectSettingsSchema.safeParse({ ...good, repairBudget: 11 }).success).toBe(false);
    expect(projectSettingsSchema.safeParse({ ...good, branchProvider: 'sqlite' }).success).toBe(false);
    // `parallel`: lanes built at once, a whole number from 1; absent means the machine's cores.
    expect(projectSettingsSchema.parse({ ...good, parallel: 2 })).toMatchObject({ parallel: 2 });
    for (const parallel of [0, 1.5, '2', 33]) expect(projectSettingsSchema.safeParse({ ...good, parallel }).success).toBe(false);
    expect(projectSettingsSchema.safeParse({ ...good, migrations: { tool: 'flyway', path: 'db' } }).success).toBe(false);
    // `smells`: the smell report's thresholds, each optional; a factor of 1 or less would call every turn a stall.
    expect(projectSettingsSchema.parse({ ...good, smells: { stallFactor: 4, gateWaitHours: 0.5 } })).toMatchObject({
      smells: { stallFactor: 4, gateWaitHours: 0.5 },
    });
    expect(projectSettingsSchema.safeParse({ ...good, smells: {} }).success).toBe(true);
    for (const smells of [
      { stallFactor: 1 },
      { rubberStampSeconds: -1 },
      { gateWaitHours: 0 },
      { repeatedViolations: 1.5 },
      { repeatedViolations: 0 },
      { stalFactor: 3 },
    ])
      expect(projectSettingsSchema.safeParse({ ...good, smells }).success, JSON.stringify(smells)).toBe(false);
    // Unknown keys survive, so a newer Baton's settings are not lost by an older one.
    expect(projectSettingsSchema.parse({ ...good, later: true })).toMatchObject({ later: true });
  });
});
