import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosesFiles, commandFor, runnerSpec, splitCommand, type NodeReporter, type RunnerSpec } from './runner-family';

const pkg = (scripts: Record<string, unknown>) => JSON.stringify({ name: 'p', scripts });
const REPORTER = { module: '/var/baton run/baton-reporter.mjs', destination: '/var/baton/report.fifo' };
const REPORTER_ARGS = "'--test-reporter=/var/baton run/baton-reporter.mjs' --test-reporter-destination=/var/baton/report.fifo";
const OTHER: RunnerSpec = { family: 'other', viaScript: false, script: null };
const HOSTILE = ['a b.test.js', "it's.test.js", 'x"y.test.js', '$(touch pwned).test.js', '`id`;rm -rf x.test.js', 'new\nline.test.js', '*.test.js'];

describe('runnerSpec: the family from the command, or from the package.json script it names', () => {
  it.each([
    ['node --test', 'node-test'],
    ['node --test-reporter=tap --test', 'node-test'],
    ['NODE_OPTIONS=--no-warnings node --test', 'node-test'],
    ['npx vitest run', 'vitest'],
    ['node_modules/.bin/vitest', 'vitest'],
    ['jest --ci', 'jest'],
    ['pytest -q', 'pytest'],
    ['python3 -m pytest tests', 'pytest'],
    ['make test', 'other'],
    ['npx jest-cli', 'other'],
    ['node test/run.js', 'other'],
    ['npm test --silent', 'other'],
  ] as const)('%s → %s', (command, family) => {
    expect(runnerSpec(command, null)).toEqual({ family, viaScript: false, script: null });
  });

  it('npm, pnpm and yarn scripts resolve to their script body; `t` is `test`', () => {
    const json = pkg({ test: 'node --test', 'test:unit': 'vitest run', 'test.jest': 'jest', py: 'pytest', piped: 'jest | tee out' });
    expect(runnerSpec('npm test', json)).toEqual({ family: 'node-test', viaScript: true, script: 'node --test' });
    expect(runnerSpec('npm t', json)).toEqual({ family: 'node-test', viaScript: true, script: 'node --test' });
    expect(runnerSpec('  pnpm test  ', json).family).toBe('node-test');
    expect(runnerSpec('npm run-script test:unit', json)).toEqual({ family: 'vitest', viaScript: true, script: 'vitest run' });
    expect(runnerSpec('yarn test.jest', json)).toEqual({ family: 'jest', viaScript: true, script: 'jest' });
    expect(runnerSpec('yarn run py', json)).toEqual({ family: 'pytest', viaScript: true, script: 'pytest' });
    // A script Baton cannot take apart keeps its family but is run through npm.
    expect(runnerSpec('npm run piped', json)).toEqual({ family: 'jest', viaScript: true, script: null });
  });

  it('a script that is missing or not a string, a package.json absent or broken: other, via a script', () => {
    const other = { family: 'other', viaScript: true, script: null };
    expect(runnerSpec('npm run nope', pkg({ test: 'vitest' }))).toEqual(other);
    expect(runnerSpec('npm test', pkg({ test: 5 }))).toEqual(other);
    expect(runnerSpec('npm test', JSON.stringify({ name: 'no scripts' }))).toEqual(other);
    expect(runnerSpec('npm test', null)).toEqual(other);
    expect(runnerSpec('npm test', '{ "scripts": { "test": "vitest" ')).toEqual(other);
  });
});

describe('commandFor: exactly these files, in this order, never the runner’s own discovery', () => {
  const files = ['src/b.test.js', 'src/a.test.js'];
  const run = (command: string, json: string | null = null, reporter: NodeReporter | null = REPORTER) =>
    commandFor(command, runnerSpec(command, json), files, reporter);

  it('node:test: discovery folders dropped, value options kept, Baton’s reporter before the files', () => {
    expect(run('node --test')).toBe(`node --test ${REPORTER_ARGS} src/b.test.js src/a.test.js`);
    expect(run('node --test test/ other/')).toBe(`node --test ${REPORTER_ARGS} src/b.test.js src/a.test.js`);
    expect(run('NODE_ENV=test node --import tsx --test test/')).toBe(`NODE_ENV=test node --import tsx --test ${REPORTER_ARGS} src/b.test.js src/a.test.js`);
    expect(run('node --test test/', null, null)).toBe('node --test src/b.test.js src/a.test.js');
  });

  it('vitest keeps `run` and its options, drops its folders, gets no node reporter', () => {
    expect(run('npx vitest run src/ --reporter=dot')).toBe('npx vitest run --reporter=dot src/b.test.js src/a.test.js');
    expect(run('vitest --config vitest.unit.ts src')).toBe('vitest --config vitest.unit.ts src/b.test.js src/a.test.js');
  });

  it('jest gets --runTestsByPath; pytest keeps `-m pytest` and `-k` with its value', () => {
    expect(run('jest --ci tests/')).toBe('jest --ci --runTestsByPath src/b.test.js src/a.test.js');
    expect(commandFor('python3 -m pytest tests -k "not slow"', runnerSpec('python3 -m pytest', null), ['tests/test_x.py'], null)).toBe(
      "python3 -m pytest -k 'not slow' tests/test_x.py",
    );
  });

  it('a simple npm script runs as its own command with node_modules/.bin on PATH, its folders dropped', () => {
    const json = pkg({ test: 'node --test test/', unit: 'vitest run src' });
    expect(run('npm test', json)).toBe(`PATH="$PWD/node_modules/.bin:$PATH" node --test ${REPORTER_ARGS} src/b.test.js src/a.test.js`);
    expect(run('npm run unit', json)).toBe('PATH="$PWD/node_modules/.bin:$PATH" vitest run src/b.test.js src/a.test.js');
  });

  it('a command or script Baton cannot take apart gets the files appended (after `--` for a script)', () => {
    expect(run('npm run piped', pkg({ piped: 'vitest run | tee out' }))).toBe('npm run piped -- src/b.test.js src/a.test.js');
    expect(run('vitest run $DIR')).toBe('vitest run $DIR src/b.test.js src/a.test.js');
  });

  it('other runners run as configured; `{files}` is replaced at every place it appears', () => {
    expect(commandFor('make test', OTHER, files, REPORTER)).toBe('make test');
    expect(commandFor('tool {files} --again {files}', OTHER, ['a.js', 'b c.js'], null)).toBe("tool a.js 'b c.js' --again a.js 'b c.js'");
  });

  it('`{files}` in a node:test command gets Baton’s reporter just before the files', () => {
    const spec = runnerSpec('node --test {files}', null);
    const reporter = { module: '/r/rep.mjs', destination: '/r/report.fifo' };
    expect(commandFor('node --test {files}', spec, ['a.test.js'], reporter)).toBe(
      'node --test --test-reporter=/r/rep.mjs --test-reporter-destination=/r/report.fifo a.test.js',
    );
  });

  it('with Baton’s driver, node:test runs as `node [node options] baton-run.mjs …` so the file order holds', () => {
    const reporter = { module: '/r/rep.mjs', destination: '/r/report.fifo', runner: '/r/baton-run.mjs', keyFile: '/r/report.key' };
    const command =
      'NODE_ENV=test node --import tsx --test --test-concurrency=1 --test-reporter spec --test-reporter-destination=stdout --test-name-pattern=only --test-timeout 5000 test/';
    expect(commandFor(command, runnerSpec(command, null), ['test/b.test.js', 'test/a.test.js'], reporter)).toBe(
      'NODE_ENV=test exec node --import tsx /r/baton-run.mjs --destination=/r/report.fifo --key-file=/r/report.key --concurrency=1 --timeout=5000 -- test/b.test.js test/a.test.js',
    );
  });

  it('the driver starts from the sealed runtime when the command’s node is the one it copies, and only then', () => {
    const sealed = { from: '/usr/bin/node', path: '/cache/sealed-node/node-1' };
    const reporter = { module: '/r/rep.mjs', destination: '/r/f', runner: '/r/baton-run.mjs', keyFile: '/r/k', node: sealed };
    const run = (command: string) => commandFor(command, runnerSpec(command, null), ['test/a.test.js'], reporter);
    expect(run('node --test')).toBe('exec /cache/sealed-node/node-1 /r/baton-run.mjs --destination=/r/f --key-file=/r/k -- test/a.test.js');
    expect(run('/usr/bin/node --test')).toMatch(/^exec \/cache\/sealed-node\/node-1 /);
    expect(run('env /opt/node18/bin/node --test')).toMatch(/^exec env \/opt\/node18\/bin\/node /);
  });

  it('choosesFiles: every known family; other only with {files}', () => {
    for (const family of ['node-test', 'vitest', 'jest', 'pytest'] as const) expect(choosesFiles('x', { family, viaScript: false, script: null })).toBe(true);
    expect(choosesFiles('make test', OTHER)).toBe(false);
    expect(choosesFiles('make test FILES="{files}"', OTHER)).toBe(true);
  });
});

describe('hostile file names reach the runner as exactly one argument each, through a real shell', () => {
  let dir: string;
  // Stand-ins that print their arguments NUL-separated: one on PATH, one in node_modules/.bin.
  const printer = '#!/bin/sh\nprintf \'%s\\0\' "$@"\n';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-family-'));
    await mkdir(join(dir, 'bin'));
    await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
    for (const file of [join(dir, 'bin', 'jest'), join(dir, 'node_modules', '.bin', 'vitest')]) {
      await writeFile(file, printer);
      await chmod(file, 0o755);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const argsOf = (command: string) =>
    execFileSync('/bin/sh', ['-c', command], { cwd: dir, encoding: 'utf8', env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}` } })
      .split('\0')
      .slice(0, -1);

  it('{files}', () => {
    expect(argsOf(commandFor("printf '%s\\0' {files}", OTHER, HOSTILE, null))).toEqual(HOSTILE);
  });

  it('a rewritten command', () => {
    expect(argsOf(commandFor("jest --ci 'tests dir/'", runnerSpec('jest', null), HOSTILE, null))).toEqual(['--ci', '--runTestsByPath', ...HOSTILE]);
  });

  it('an npm script run directly finds the runner in node_modules/.bin', () => {
    const json = pkg({ test: 'vitest run src' });
    expect(argsOf(commandFor('npm test', runnerSpec('npm test', json), HOSTILE, null))).toEqual(['run', ...HOSTILE]);
  });
});

describe('splitCommand', () => {
  it('words with quotes removed; null for anything a shell would interpret', () => {
    expect(splitCommand(`a 'b c' "d e" f'g'h`)).toEqual(['a', 'b c', 'd e', 'fgh']);
    expect(splitCommand(`node --test "test/**/*.test.ts"`)).toEqual(['node', '--test', 'test/**/*.test.ts']);
    for (const command of ['a | b', 'a && b', 'a; b', 'a > out', 'echo $HOME', 'echo "$HOME"', 'a `id`', "'open", 'a\\ b', 'ls *.js', '  '])
      expect(splitCommand(command)).toBeNull();
  });
});
