import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write';
import { isContainedWriteError, mkdirInside, removeInside, writeFileInside } from './contained-write';

let base: string;
let root: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-contained-'));
  root = join(base, 'project');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'victim.txt'), 'the user file\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the write went through');
    },
    (error: unknown) => {
      expect(isContainedWriteError(error)).toBe(true);
      return error as Error & { link: string };
    },
  );

describe('writeFileInside', () => {
  it('writes a file, making its folders', async () => {
    await writeFileInside(root, join(root, 'a', 'b', 'c.txt'), 'hello');
    expect(await readFile(join(root, 'a', 'b', 'c.txt'), 'utf8')).toBe('hello');
  });

  it('replaces an existing file whole', async () => {
    await writeFileInside(root, join(root, 'f.txt'), 'a longer first content');
    await writeFileInside(root, join(root, 'f.txt'), 'short');
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('short');
  });

  it('refuses a link at a folder component, naming it and its target; nothing reaches the target', async () => {
    await symlink(outside, join(root, 'src'));
    const error = await refusal(writeFileInside(root, join(root, 'src', 'victim.txt'), 'overwritten'));
    expect(error.link).toBe(join(root, 'src'));
    expect(error.message).toMatch(/src is a symbolic link \(to .*outside\), and Baton writes only into the project's own folders/);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('the user file\n');
  });

  it('refuses a link deeper down, even one whose target is inside the project', async () => {
    await mkdir(join(root, 'real'));
    await mkdir(join(root, 'a'));
    await symlink(join(root, 'real'), join(root, 'a', 'b'));
    await refusal(writeFileInside(root, join(root, 'a', 'b', 'x.txt'), 'x'));
    expect(await readdir(join(root, 'real'))).toEqual([]);
  });

  it('refuses a link at the file itself (O_NOFOLLOW): the linked file keeps its content', async () => {
    await symlink(join(outside, 'victim.txt'), join(root, 'package.json'));
    await refusal(writeFileInside(root, join(root, 'package.json'), '{}'));
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('the user file\n');
  });

  it('refuses a name that leads outside the root (`..`)', async () => {
    const error = await refusal(writeFileInside(root, join(root, '..', 'outside', 'victim.txt'), 'x'));
    expect(error.message).toMatch(/is not inside/);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('the user file\n');
  });
});

describe('mkdirInside and removeInside', () => {
  it('mkdirInside makes nested folders and refuses to make them through a link', async () => {
    await mkdirInside(root, join(root, 'x', 'y'));
    expect(await readdir(join(root, 'x'))).toEqual(['y']);
    await symlink(outside, join(root, 'link'));
    await refusal(mkdirInside(root, join(root, 'link', 'new')));
    expect(await readdir(outside)).toEqual(['victim.txt']);
  });

  it('removeInside removes a file, a link itself (not its target), and refuses a path through a linked folder', async () => {
    await writeFile(join(root, 'f'), 'x');
    await removeInside(root, join(root, 'f'));
    expect(await readdir(root)).toEqual([]);
    await symlink(join(outside, 'victim.txt'), join(root, 'l'));
    await removeInside(root, join(root, 'l'));
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('the user file\n');
    await symlink(outside, join(root, 'dir'));
    await refusal(removeInside(root, join(root, 'dir', 'victim.txt')));
    expect(await readdir(outside)).toEqual(['victim.txt']);
  });
});

describe('writeFileAtomic with a root', () => {
  it('refuses a linked folder on the way and writes nothing outside', async () => {
    await symlink(outside, join(root, 'state'));
    await refusal(writeFileAtomic(join(root, 'state', 'victim.txt'), 'x', { root }));
    expect(await readdir(outside)).toEqual(['victim.txt']);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('the user file\n');
  });

  it('replaces a link at the file itself instead of writing through it', async () => {
    await symlink(join(outside, 'victim.txt'), join(root, 'state.json'));
    await writeFileAtomic(join(root, 'state.json'), '{}', { root });
    expect(await readFile(join(root, 'state.json'), 'utf8')).toBe('{}');
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('the user file\n');
  });
});
