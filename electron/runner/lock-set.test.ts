import { mkdir, mkdtemp, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkLock, restoreLock, takeLock, type LockRules } from './lock-set';

const RULES: LockRules = { testGlobs: ['test/**'], runnerConfigFiles: ['package.json'], testCommand: 'node --test' };

describe('the lock over a real worktree', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-lock-'));
    await mkdir(join(dir, 'test'));
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'test/a.test.js'), "test('a', () => assert.equal(total(), 3));\n");
    await writeFile(join(dir, 'package.json'), '{"scripts":{"test":"node --test"}}\n');
    await writeFile(join(dir, 'src/a.js'), 'x\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('records tests and runner config, not source', async () => {
    const lock = await takeLock(dir, RULES);
    expect(lock.set.files.map((f) => f.path)).toEqual(['package.json', 'test/a.test.js']);
    expect(lock.set.testCommandSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  const tampering: Array<[string, (dir: string) => Promise<void>, string[]]> = [
    ['edits a locked test', (d) => writeFile(join(d, 'test/a.test.js'), "test('a', () => assert.equal(total(), 0));\n"), ['changed']],
    ['adds .skip', (d) => writeFile(join(d, 'test/a.test.js'), "test.skip('a', () => assert.equal(total(), 3));\n"), ['changed']],
    ['deletes it', (d) => unlink(join(d, 'test/a.test.js')), ['deleted']],
    ['renames it', (d) => rename(join(d, 'test/a.test.js'), join(d, 'test/a.test.js.bak')), ['renamed']],
    ['changes the test command in package.json', (d) => writeFile(join(d, 'package.json'), '{"scripts":{"test":"true"}}\n'), ['changed']],
    ['adds a test file', (d) => writeFile(join(d, 'test/b.test.js'), 'x\n'), ['added']],
  ];
  for (const [what, tamper, kinds] of tampering) {
    it(`a Driver that ${what} is caught, and the lock restores it`, async () => {
      const lock = await takeLock(dir, RULES);
      await writeFile(join(dir, 'src/a.js'), 'the real work\n');
      await tamper(dir);
      const check = await checkLock(dir, lock, RULES);
      expect(check.violations.map((v) => v.kind)).toEqual(kinds);
      await restoreLock(dir, check.violations);
      expect((await checkLock(dir, lock, RULES)).violations).toEqual([]);
      expect(await readFile(join(dir, 'src/a.js'), 'utf8')).toBe('the real work\n');
    });
  }

  it('source changes are not violations; a different test command is', async () => {
    const lock = await takeLock(dir, RULES);
    await writeFile(join(dir, 'src/a.js'), 'y\n');
    expect(await checkLock(dir, lock, RULES)).toEqual({ violations: [], commandChanged: false });
    expect((await checkLock(dir, lock, { ...RULES, testCommand: 'true' })).commandChanged).toBe(true);
  });
});
