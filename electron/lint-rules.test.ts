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

  it('tests and benchmarks may use fixtures', async () => {
    const code = "import { removeDir } from '../project/temp-project.fixture';\nexport const x = removeDir;\n";
    expect(await rulesFiring('electron/core/zz-probe.test.ts', code)).toEqual([]);
    expect(await rulesFiring('electron/core/bench-zz.ts', code)).toEqual([]);
  });
});
