/**
 * The names the tell scan (tell-scan.ts) knows: what each built-in module and global is, which of
 * their properties tell a test run from production, and what a string that names test files, /proc
 * or Baton looks like. A `why` is part of a tell's id (a Product Owner's allowance names ids), so
 * the words below are never reworded lightly. Pure data and small classifiers.
 */

/** The files the scan reads: JavaScript and TypeScript, as Node and the runners load them. */
const SCANNED = /\.(?:[cm]?[jt]s|[jt]sx)$/i;
export const isScannedSource = (path: string): boolean => SCANNED.test(path);

export const WHY = {
  nodeEnv: 'reads NODE_ENV',
  buildMode: 'reads the build mode',
  runnerVariable: 'reads a test-runner environment variable',
  batonNames: "refers to Baton's own names",
  wholeEnvironment: 'reads the whole environment',
  computed: 'reads a property whose name is computed at run time',
  commandLine: 'reads the command line',
  processIds: 'reads its process ids',
  // Mutation testing runs at the lowest CPU priority (process/priority.ts): code that reads it could fail only there and kill every mutant.
  priority: 'reads its CPU priority',
  hostOrUser: 'reads the host or user it runs as',
  network: 'reads the network interfaces',
  terminal: 'asks whether it runs in a terminal',
  parentProcess: 'asks whether a parent process is listening',
  thread: 'asks which thread it runs in',
  mainModule: 'asks which module is running',
  stack: 'inspects the call stack',
  location: 'inspects where the module runs from',
  listsFiles: 'lists the files around it',
  sourceCode: 'reads source code at run time',
  testFiles: 'refers to test files',
  proc: 'reads /proc',
  container: 'looks for a sandbox or container',
  runnerGlobal: 'checks for the test runner',
  runnerModule: "loads the test runner's module",
  assertLoad: 'loads the assertion library at run time',
  assertChange: 'changes the assertion library',
  builtIn: 'replaces part of a built-in',
  internals: 'reaches into Node internals',
  codeFromText: 'builds code from text at run time',
  computedModule: 'loads a module whose name is computed at run time',
  handsOver: 'hands process or the global object to code the scan cannot follow',
  unscanned: 'could not be scanned',
} as const;

/** What a built-in module, or a global object, is to the scan. */
export type Builtin =
  | 'process'
  | 'env'
  | 'global'
  | 'os'
  | 'fs'
  | 'path'
  | 'url'
  | 'module'
  | 'assert'
  | 'runner'
  | 'vm'
  | 'inspector'
  | 'worker'
  | 'tty'
  | 'v8'
  | 'child_process'
  | 'cjsModule'
  | 'meta'
  | 'metaEnv'
  | 'internal'
  | 'Error'
  | 'Function'
  | 'eval'
  | 'other';

/** A test runner's package, or the runners' globals module. */
const RUNNER_MODULES = /^(?:node:test(?:\/.*)?|test|vitest(?:\/.*)?|@vitest\/.*|jest|@jest\/.*|mocha|tap|ava|uvu|jasmine|tape|@playwright\/test)$/;

/** The built-in a module specifier loads (`node:` or not), or null for any other module. */
export function moduleOf(specifier: string): Builtin | null {
  if (RUNNER_MODULES.test(specifier)) return 'runner';
  const name = specifier.replace(/^node:/, '');
  const table: Record<string, Builtin> = {
    process: 'process',
    os: 'os',
    fs: 'fs',
    'fs/promises': 'fs',
    path: 'path',
    'path/posix': 'path',
    'path/win32': 'path',
    url: 'url',
    module: 'module',
    assert: 'assert',
    'assert/strict': 'assert',
    chai: 'assert',
    vm: 'vm',
    inspector: 'inspector',
    'inspector/promises': 'inspector',
    worker_threads: 'worker',
    tty: 'tty',
    v8: 'v8',
    child_process: 'child_process',
  };
  return Object.hasOwn(table, name) ? table[name]! : null;
}

/**
 * Globals the scan follows when no declaration in the file shadows them. The platform's other
 * globals (`console`, `Object`, `Math`…) are `other`, with their name as the first step of the path.
 */
const GLOBALS: Record<string, Builtin> = {
  process: 'process',
  globalThis: 'global',
  global: 'global',
  window: 'global',
  self: 'global',
  Error: 'Error',
  Function: 'Function',
  eval: 'eval',
  module: 'cjsModule',
  internalBinding: 'internal',
  primordials: 'internal',
};
/** Globals a patch of which replaces the platform for every module (and for the runner). */
const PATCHABLE = new Set([
  'console',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Symbol',
  'Promise',
  'JSON',
  'Math',
  'Reflect',
  'Date',
  'RegExp',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Proxy',
  'Buffer',
  'URL',
  'setTimeout',
  'setInterval',
  'queueMicrotask',
  'fetch',
  'performance',
]);
export const globalOf = (name: string): Builtin | null => (Object.hasOwn(GLOBALS, name) ? GLOBALS[name]! : PATCHABLE.has(name) ? 'other' : null);

/** The globals test runners define (`describe`, `vi`, vitest's worker state…). */
const RUNNER_GLOBALS =
  /^(?:jest|vi|vitest|describe|it|test|expect|suite|before|after|beforeEach|afterEach|beforeAll|afterAll|mocha|chai|__vitest_\w+__|__VITEST\w*|__jest\w*|__coverage__)$/;
export const isRunnerGlobal = (name: string): boolean => RUNNER_GLOBALS.test(name);

/** A variable a test runner, npm or the shell that started the run sets. */
const RUNNER_VARIABLE =
  /^(?:(?:\w*_)?(?:TEST|CI)(?:_\w*)?|\w*(?:JEST|VITEST|MOCHA)\w*|npm_\w+|NODE_OPTIONS|NODE_V8_COVERAGE|NODE_CHANNEL_FD|NODE_UNIQUE_ID|INIT_CWD|PWD|OLDPWD|SHLVL|_)$/;

/** Why reading this environment variable tells a test run apart, or null for ordinary configuration (DATABASE_URL, PORT). */
export function envWhy(key: string, meta = false): string | null {
  if (key === 'NODE_ENV') return WHY.nodeEnv;
  if (meta && /^(?:MODE|DEV|PROD|SSR)$/.test(key)) return WHY.buildMode;
  if (/^BATON_/i.test(key)) return WHY.batonNames;
  return RUNNER_VARIABLE.test(key) ? WHY.runnerVariable : null;
}

const PROCESS_MEMBERS: Record<string, string> = {
  argv: WHY.commandLine,
  argv0: WHY.commandLine,
  execArgv: WHY.commandLine,
  execPath: WHY.commandLine,
  title: WHY.commandLine,
  report: WHY.commandLine,
  pid: WHY.processIds,
  ppid: WHY.processIds,
  mainModule: WHY.mainModule,
  getuid: WHY.hostOrUser,
  geteuid: WHY.hostOrUser,
  getgid: WHY.hostOrUser,
  getegid: WHY.hostOrUser,
  getgroups: WHY.hostOrUser,
  send: WHY.parentProcess,
  channel: WHY.parentProcess,
  connected: WHY.parentProcess,
  disconnect: WHY.parentProcess,
  binding: WHY.internals,
  _linkedBinding: WHY.internals,
  dlopen: WHY.internals,
  moduleLoadList: WHY.internals,
  _getActiveHandles: WHY.internals,
  _getActiveRequests: WHY.internals,
  getActiveResourcesInfo: WHY.internals,
  _rawDebug: WHY.internals,
  _debugProcess: WHY.internals,
  reallyExit: WHY.internals,
};
const TERMINAL = new Set(['isTTY', 'columns', 'rows', 'getWindowSize', 'hasColors', 'getColorDepth']);

/** Why reading `key` of a built-in (at `path` below it) tells a test run apart, or null. */
export function memberWhy(of: Builtin, path: readonly string[], key: string): string | null {
  const own = (table: Record<string, string>) => (Object.hasOwn(table, key) ? table[key]! : null);
  switch (of) {
    case 'process':
      if (path.length === 0) return own(PROCESS_MEMBERS);
      return path.length === 1 && /^std(?:out|err|in)$/.test(path[0]!) && TERMINAL.has(key) ? WHY.terminal : null;
    case 'env':
      return path.length === 0 ? envWhy(key) : null;
    case 'metaEnv':
      return path.length === 0 ? envWhy(key, true) : null;
    case 'global':
      return path.length === 0 && isRunnerGlobal(key) ? WHY.runnerGlobal : null;
    case 'os':
      if (path.length) return null;
      return key === 'networkInterfaces'
        ? WHY.network
        : key === 'hostname' || key === 'userInfo'
          ? WHY.hostOrUser
          : key === 'getPriority'
            ? WHY.priority
            : null;
    case 'meta':
      return key === 'vitest' ? WHY.runnerGlobal : key === 'main' ? WHY.mainModule : null;
    case 'cjsModule':
      return path.length === 0 && (key === 'parent' || key === 'children') ? WHY.mainModule : null;
    case 'Error':
      return path.length === 0 && (key === 'captureStackTrace' || key === 'prepareStackTrace') ? WHY.stack : null;
    case 'worker':
      return path.length === 0 && ['isMainThread', 'threadId', 'workerData', 'parentPort'].includes(key) ? WHY.thread : null;
    case 'tty':
      return key === 'isatty' ? WHY.terminal : null;
    case 'v8':
      return key === 'setFlagsFromString' ? WHY.internals : null;
    default:
      return null;
  }
}

/** Objects whose property a computed name may reach (`process[k]`, `process.env[k]`, `os[k]`). */
export const guardsComputed = (of: Builtin, path: readonly string[]): boolean =>
  path.length === 0 && ['process', 'env', 'metaEnv', 'global', 'os', 'fs', 'Error', 'meta', 'cjsModule'].includes(of);

/**
 * Whether writing `key` of a built-in replaces it for every module, the runner included. Writing an
 * environment variable, `process.exitCode` or `module.exports` does not.
 */
export function isPatchTarget(of: Builtin, path: readonly string[], key: string | null): boolean {
  if (of === 'env' || of === 'metaEnv' || of === 'meta' || of === 'cjsModule') return false;
  return !(of === 'process' && path.length === 0 && key === 'exitCode');
}

/** `.test.js`, `/test/`, `__tests__`, `test_x.py`: a string that names the tests. */
const TEST_PATH = /\.(?:test|spec)\.[cm]?[jt]sx?\b|\.(?:test|spec)\\?\.|(?:^|[/\\])(?:tests?|__tests__|specs?)[/\\]|(?:^|\/)test_\w+\.py|_test\.py\b/;
/** A bare folder name that is the tests' when it is handed to fs or path. */
export const TEST_FOLDER = /^(?:\.\/)?(?:tests?|__tests__|specs?)\/?$/;
const PROC = /\/proc(?:\/|$)/;
const CONTAINER = /\/\.dockerenv|\/run\/\.containerenv|\/sys\/fs\/cgroup|\/\.flatpak-info|\bbwrap\b|bubblewrap/;
const BATON = /\bBATON_[A-Z]|\bbaton_migrations\b|(?:^|\/)\.baton(?:\/|$)/;

/** Why a string constant (known fragments joined, holes as NUL) tells a test run apart, or null. */
export function stringWhy(text: string): string | null {
  if (PROC.test(text)) return WHY.proc;
  if (CONTAINER.test(text)) return WHY.container;
  if (TEST_PATH.test(text)) return WHY.testFiles;
  if (BATON.test(text)) return WHY.batonNames;
  return null;
}

/** String methods whose use on a location or a stack is inspecting it. */
export const INSPECTING = new Set([
  'test',
  'exec',
  'match',
  'matchAll',
  'includes',
  'startsWith',
  'endsWith',
  'indexOf',
  'lastIndexOf',
  'search',
  'localeCompare',
]);
/** Members of a location that are still the location (`new URL(...).pathname`). */
export const LOCATION_KEEPS = new Set(['href', 'pathname', 'toString', 'valueOf', 'filename', 'dirname', 'url']);
/** fs functions that read a file's content. */
export const READS_FILE = /^(?:readFile|readFileSync|createReadStream|open|openSync|openAsBlob)$/;
/** fs functions that list a folder. */
export const LISTS_FOLDER = /^(?:readdir|readdirSync|opendir|opendirSync|glob|globSync)$/;
