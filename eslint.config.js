// Lint rules, including the import boundaries between runtimes (ARCHITECTURE.md, "Processes and folders").
// Do not relax the boundary rules: they are what keeps shared/ pure and electron out of the renderer.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const noNode = { group: ['node:*'], message: 'This runtime has no Node.js: keep Node code in electron/.' };
const noElectron = { name: 'electron', message: "Only electron/app/ and electron/preload/ may import 'electron'." };
const nodePaths = nodeBuiltins.map((name) => ({ name, message: 'This runtime has no Node.js: keep Node code in electron/.' }));
const noFixture = { group: ['**/*.fixture', '*.fixture'], message: 'A *.fixture.ts file is a test helper: only tests and benchmarks (bench/) import it.' };
const noBench = {
  group: ['**/bench/**', 'bench/**'],
  message: 'bench/ holds the benchmarks: production code imports nothing from it (only `baton bench`, through electron/core/project-tools.ts).',
};
/** The adapters (ARCHITECTURE.md), the layers below them, and the folders that wire or host them. */
const ADAPTERS = ['project', 'ledger', 'branches', 'runner', 'agents'];
const LOWER = ['process', 'platform'];
const WIRING = ['gates', 'engine', 'core', 'host', 'cli', 'app', 'preload'];
/** Imports of a folder of electron/ (its index or anything in it) from one or two folders down. */
const folderImports = (f) => [`../${f}`, `../${f}/**`, `../../${f}`, `../../${f}/**`, `**/electron/${f}/**`];
const noRenderer = { group: ['**/renderer/**'], message: 'Main-side code never imports the renderer.' };
const noIpc = { name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: 'Bind IPC only in electron/app/ipc.ts.' };

// Every folder of electron/ (ARCHITECTURE.md, "Processes and folders").
const ELECTRON_FOLDERS = [
  'agents',
  'app',
  'branches',
  'cli',
  'core',
  'demo',
  'engine',
  'gates',
  'host',
  'ledger',
  'orchestrator',
  'platform',
  'preload',
  'process',
  'project',
  'runner',
];

/**
 * The three hosts are thin (ARCHITECTURE.md, "Three hosts, one core"): a host imports electron/core/,
 * shared/ and its own folder, nothing else of Baton's, and reaches the rest through dispatch (a channel)
 * or a core function, so a refusal written once holds in every host. `also` lists a justified exception.
 * Relative imports one and two folders deep (electron/cli/x.ts and electron/cli/commands/x.ts).
 */
const thinHost = (own, also = []) => ({
  group: ELECTRON_FOLDERS.filter((f) => f !== 'core' && f !== own && !also.includes(f)).flatMap((f) => [
    `../${f}`,
    `../${f}/**`,
    `../../${f}`,
    `../../${f}/**`,
    `**/electron/${f}`,
    `**/electron/${f}/**`,
  ]),
  message: `electron/${own}/ is a thin host: it imports only electron/core/, shared/ and its own folder. Reach the rest through dispatch (a channel) or a function in electron/core/.`,
});
// Tests and their fixtures are not the host: they build real projects, ledgers and providers to test it with.
const NOT_HOST_CODE = ['**/*.test.ts', '**/*.fixture.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'e2e/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodePaths, noElectron, { name: 'react', message: 'shared/ is pure: no React.' }],
          patterns: [noNode, { group: ['**/electron/**', '**/renderer/**', '**/e2e/**'], message: 'shared/ imports nothing from the other runtimes.' }],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/vite.config.ts'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodePaths, noElectron],
          patterns: [noNode, { group: ['**/electron/**', '**/e2e/**'], message: 'The renderer talks to main only through the contract in shared/.' }],
        },
      ],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/app/**', 'electron/preload/**'],
    languageOptions: { globals: globals.node },
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noRenderer] }],
    },
  },
  {
    // The one-fold check (issue 34) compares the renderer's own pure views (board, inbox, Live run)
    // with the CLI's on the same project: the one main-side file that reads renderer code, a test helper.
    files: ['electron/core/one-fold.fixture.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  {
    // The orchestrator is pure: machines and the ports they run through. Adapters (git, databases,
    // runner, agents, ledger) are wired in by core; do not relax this rule.
    files: ['electron/orchestrator/**/*.ts'],
    ignores: ['electron/orchestrator/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, ...nodePaths],
          patterns: [
            noNode,
            noRenderer,
            {
              // Both a folder's index ('../ledger') and anything in it ('../ledger/blob-store').
              group: ['project', 'ledger', 'branches', 'runner', 'agents', 'core', 'engine', 'process', 'host', 'cli', 'gates', 'platform'].flatMap((f) => [
                `../${f}`,
                `../${f}/**`,
                `**/electron/${f}/**`,
              ]),
              message: 'The orchestrator imports no adapter: declare a port in electron/orchestrator/ and let core provide it.',
            },
          ],
        },
      ],
    },
  },
  {
    // Raw IPC lives only in the preload and the main-side binding (electron/app/ipc.ts); the app is a thin host.
    files: ['electron/app/**/*.ts'],
    ignores: ['electron/app/ipc.ts', ...NOT_HOST_CODE],
    rules: { 'no-restricted-imports': ['error', { paths: [noIpc], patterns: [noRenderer, thinHost('app')] }] },
  },
  {
    files: ['electron/app/ipc.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noRenderer, thinHost('app')] }] },
  },
  {
    files: ['electron/host/**/*.ts'],
    ignores: NOT_HOST_CODE,
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noRenderer, thinHost('host')] }] },
  },
  {
    files: ['electron/cli/**/*.ts'],
    ignores: ['electron/cli/commands/serve.ts', ...NOT_HOST_CODE],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noRenderer, thinHost('cli')] }] },
  },
  {
    // The one exception: `baton serve` is how the browser host starts, so it imports electron/host/
    // (startHost) and hands it the same host session every host builds. Nothing else of the CLI may.
    files: ['electron/cli/commands/serve.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noRenderer, thinHost('cli', ['host'])] }] },
  },
  {
    // The benchmarks (bench/, `npm run bench:*`): Node code next to production, never part of it. They
    // may import fixtures (*.fixture.ts) and any production module; production never imports them.
    files: ['bench/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noRenderer] }] },
  },
  {
    // Test helpers are named *.fixture.ts and serve tests and benchmarks (bench/) only: production code
    // never imports one, nor anything in bench/. (The typescript-eslint rule, so the boundary rules above
    // keep their own options.)
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.fixture.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noFixture, noBench] }],
    },
  },
  {
    // The one exception to noBench: `baton bench branches` runs the branch benchmark (bench/branches/)
    // through this core function, so the CLI, a thin host, still imports only core.
    files: ['electron/core/project-tools.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noFixture] }] },
  },
  // Adapters meet only through ports: a value import from one adapter into another is refused; a type
  // (`import type`, the port an adapter implements or takes) is allowed. core and engine wire them.
  // process/ and platform/ sit below every adapter and import none. Each block repeats the fixture
  // and bench patterns above: a later block's options replace an earlier one's for the same rule.
  ...[...ADAPTERS, ...LOWER].map((self) => ({
    files: [`electron/${self}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/*.fixture.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            noFixture,
            noBench,
            {
              group: [...ADAPTERS.filter((a) => a !== self), ...WIRING].flatMap(folderImports),
              allowTypeImports: true,
              message: LOWER.includes(self)
                ? `electron/${self}/ sits below the adapters and imports none of them (types excepted).`
                : `Adapters meet through ports: import only a type from another adapter, and let core or engine wire the value.`,
            },
          ],
        },
      ],
    },
  })),
  {
    // Source files stay small enough to read in one sitting. The demo's scenario is data (the
    // source text of every scripted turn), not logic, and is exempt.
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}', 'bench/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.fixture.ts', 'electron/demo/scenario-source.ts'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'electron/**/fixtures/*.mjs', 'bin/**/*.mjs', '*.js', 'e2e/**/*.ts', '**/*.test.ts'],
    languageOptions: { globals: globals.node },
  },
);
