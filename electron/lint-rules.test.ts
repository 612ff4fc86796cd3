/**
 * The folder rules are enforced, not just written down: each probe below is linted with the
 * project's own ESLint configuration at a path where the rule applies, and must be refused by the
 * named rule (or, for the allowed cases, pass).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

async function rulesFiring(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('lint enforces the folder rules', () => {
  it.each([
    ['shared/ has no Node', 'shared/zz-probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'no-restricted-imports'],
    [
      'shared/ imports no other runtime',
      'shared/zz-probe.ts',
      "import { Ledger } from '../electron/ledger';\nexport const x = Ledger;\n",
      'no-restricted-imports',
    ],
    [
      'the renderer talks only through the contract',
      'renderer/src/zz-probe.ts',
      "import { Workbench } from '../../electron/core/workbench';\nexport const x = Workbench;\n",
      'no-restricted-imports',
    ],
    [
      'main-side code never imports the renderer',
      'electron/core/zz-probe.ts',
      "import { App } from '../../renderer/src/app';\nexport const x = App;\n",
      'no-restricted-imports',
    ],
    [
      'the orchestrator imports no adapter',
      'electron/orchestrator/zz-probe.ts',
      "import { Ledger } from '../ledger';\nexport const x = Ledger;\n",
      'no-restricted-imports',
    ],
    [
      'only the app and preload import electron',
      'electron/core/zz-probe.ts',
      "import { app } from 'electron';\nexport const x = app;\n",
      'no-restricted-imports',
    ],
    [
      'raw IPC only in electron/app/ipc.ts',
      'electron/app/zz-probe.ts',
      "import { ipcMain } from 'electron';\nexport const x = ipcMain;\n",
      'no-restricted-imports',
    ],
    [
      'production code imports no test fixture',
      'electron/core/zz-probe.ts',
      "import { removeDir } from '../project/temp-project.fixture';\nexport const x = removeDir;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'an adapter imports no other adapter’s value (runner → agents)',
      'electron/runner/zz-probe.ts',
      "import { judgeScope } from '../agents/scope';\nexport const x = judgeScope;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'an adapter imports no other adapter’s value (branches → ledger, from a subfolder)',
      'electron/branches/neon/zz-probe.ts',
      "import { Ledger } from '../../ledger';\nexport const x = Ledger;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'an adapter does not reach up into the engine or core',
      'electron/agents/zz-probe.ts',
      "import { Workbench } from '../core/workbench';\nexport const x = Workbench;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'process/ sits below the adapters',
      'electron/process/zz-probe.ts',
      "import { BranchError } from '../branches/provider';\nexport const x = BranchError;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'platform/ sits below the adapters',
      'electron/platform/zz-probe.ts',
      "import { readSettings } from '../project/read-settings';\nexport const x = readSettings;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'an adapter still imports no fixture',
      'electron/ledger/zz-probe.ts',
      "import { removeDir } from '../project/temp-project.fixture';\nexport const x = removeDir;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'production code imports nothing from bench/',
      'electron/engine/zz-probe.ts',
      "import { benchCycle } from '../../bench/cycle';\nexport const x = benchCycle;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'an adapter imports nothing from bench/ either',
      'electron/branches/pglite/zz-probe.ts',
      "import { median } from '../../../bench/branches/stats';\nexport const x = median;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    [
      'a bench-named file in electron/ is production code: no fixture',
      'electron/engine/bench-zz.ts',
      "import { removeDir } from '../project/temp-project.fixture';\nexport const x = removeDir;\n",
      '@typescript-eslint/no-restricted-imports',
    ],
    ['a benchmark imports no electron', 'bench/zz-probe.ts', "import { app } from 'electron';\nexport const x = app;\n", 'no-restricted-imports'],
  ])('%s', async (_rule, file, code, rule) => {
    expect(await rulesFiring(file, code)).toContain(rule);
  });

  it('adapters meet through ports: a type from another adapter is allowed, and so are process/ and platform/', async () => {
    const code = [
      "import type { Ledger } from '../ledger';",
      "import { runCommand } from '../process/run-command';",
      "import { writeFileAtomic } from '../platform/atomic-write';",
      'export type L = Ledger;',
      'export const x = [runCommand, writeFileAtomic];',
      '',
    ].join('\n');
    expect(await rulesFiring('electron/branches/zz-probe.ts', code)).toEqual([]);
  });

  // The hosts are thin: electron/{cli,host,app} import only electron/core/, shared/ and their own folder.
  const adapter = "import { runFeature } from '../engine/run-feature';\nexport const x = runFeature;\n";
  const deeper = "import { Ledger } from '../../ledger';\nexport const x = Ledger;\n";
  it.each([
    ['the CLI', 'electron/cli/zz-probe.ts', adapter],
    ['a CLI command', 'electron/cli/commands/zz-probe.ts', deeper],
    [
      'a CLI command, by the platform folder',
      'electron/cli/commands/zz-probe.ts',
      "import { readVersion } from '../../platform/version';\nexport const x = readVersion;\n",
    ],
    ['a CLI command, by another host', 'electron/cli/commands/zz-probe.ts', "import { startHost } from '../../host/server';\nexport const x = startHost;\n"],
    ['the browser host', 'electron/host/zz-probe.ts', adapter],
    ['the Electron app', 'electron/app/zz-probe.ts', adapter],
    ['the IPC binding', 'electron/app/ipc.ts', "import { Ledger } from '../ledger';\nexport const x = Ledger;\n"],
  ])('%s imports nothing outside core/, shared/ and its own folder', async (_host, file, code) => {
    expect(await rulesFiring(file, code)).toContain('no-restricted-imports');
  });

  it.each([
    [
      'electron/cli/commands/zz-probe.ts',
      "import { hostSession } from '../../core/host-session';\nimport { EXIT } from '../exit-codes';\nexport const x = [hostSession, EXIT];\n",
    ],
    ['electron/cli/zz-probe.ts', "import type { ProjectView } from '../../shared/model';\nexport type X = ProjectView;\n"],
    ['electron/host/zz-probe.ts', "import { dispatch } from '../core/dispatch';\nimport { newToken } from './auth';\nexport const x = [dispatch, newToken];\n"],
    [
      'electron/app/zz-probe.ts',
      "import { app } from 'electron';\nimport { hostSession } from '../core/host-session';\nexport const x = [app, hostSession];\n",
    ],
    // The one exception, in eslint.config.js: `baton serve` starts the browser host.
    ['electron/cli/commands/serve.ts', "import { startHost } from '../../host/server';\nexport const x = startHost;\n"],
    // Tests are not host code: they build real projects and providers.
    ['electron/cli/zz-probe.test.ts', adapter],
  ])('%s may import core/, shared/ and its own folder', async (file, code) => {
    expect(await rulesFiring(file, code)).toEqual([]);
  });

  it('the hosts keep the rules that were there: no electron in the CLI, raw IPC only in ipc.ts', async () => {
    expect(await rulesFiring('electron/cli/zz-probe.ts', "import { app } from 'electron';\nexport const x = app;\n")).toContain('no-restricted-imports');
    expect(await rulesFiring('electron/app/zz-probe.ts', "import { ipcMain } from 'electron';\nexport const x = ipcMain;\n")).toContain(
      'no-restricted-imports',
    );
    expect(await rulesFiring('electron/app/ipc.ts', "import { ipcMain } from 'electron';\nexport const x = ipcMain;\n")).toEqual([]);
  });

  it('tests and benchmarks (bench/) may use fixtures', async () => {
    const code = "import { removeDir } from '../project/temp-project.fixture';\nexport const x = removeDir;\n";
    expect(await rulesFiring('electron/core/zz-probe.test.ts', code)).toEqual([]);
    const bench =
      "import { removeDir } from '../electron/project/temp-project.fixture';\nimport { runFeature } from '../electron/engine/run-feature';\nexport const x = [removeDir, runFeature];\n";
    expect(await rulesFiring('bench/zz-probe.ts', bench)).toEqual([]);
  });

  it('the one exception: `baton bench branches` runs bench/branches/ through electron/core/project-tools.ts', async () => {
    const code = "import { benchBranches } from '../../bench/branches/branches';\nexport const x = benchBranches;\n";
    expect(await rulesFiring('electron/core/project-tools.ts', code)).toEqual([]);
    expect(await rulesFiring('electron/core/zz-probe.ts', code)).toContain('@typescript-eslint/no-restricted-imports');
  });
});
