import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnRequest } from './agent-port';
import { parseScenario, type ScriptedTurn } from './scenario';
import { scriptedAgent } from './scripted-agent';

/**
 * The scripted agent's writes and deletes stay in the worktree even through a symlink: a
 * `node_modules` linked to a shared install outside must not take a write there.
 */
let base: string;
let worktree: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-scripted-'));
  worktree = join(base, 'worktree');
  outside = join(base, 'shared-install');
  await mkdir(join(worktree, 'src'), { recursive: true });
  await mkdir(join(outside, 'pg'), { recursive: true });
  await writeFile(join(outside, 'pg', 'x.js'), 'the real pg\n');
  await symlink(outside, join(worktree, 'node_modules'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function play(turn: Omit<ScriptedTurn, 'role' | 'item'>): Promise<string[]> {
  const scenario = parseScenario(JSON.stringify({ turns: [{ role: 'driver', item: 'T1', ...turn }] }), 'scenario.json');
  const request: TurnRequest = { role: 'driver', step: 'green', item: 'T1', attempt: 1, worktree, prompt: '', failure: null, env: {} };
  const result = await scriptedAgent(scenario).turn(request);
  expect(result.exitCode).toBe(0);
  return result.transcript.split('\n');
}

describe('scripted agent: writes and deletes stay inside the worktree', () => {
  it('a plain write inside works, folders made on the way', async () => {
    const lines = await play({ write: { 'src/deep/a.js': 'export const a = 1;\n' } });
    expect(lines).toContain('wrote src/deep/a.js (20 bytes)');
    expect(await readFile(join(worktree, 'src/deep/a.js'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('a write through a symlinked node_modules is refused; the file outside is unchanged', async () => {
    const lines = await play({ write: { 'node_modules/pg/x.js': 'patched\n', 'node_modules/pg/new.js': 'new\n', 'src/ok.js': 'ok' } });
    expect(lines).toContain('refused to write node_modules/pg/x.js: it leads out of the worktree (a symlink or ..)');
    expect(lines).toContain('refused to write node_modules/pg/new.js: it leads out of the worktree (a symlink or ..)');
    expect(await readFile(join(outside, 'pg', 'x.js'), 'utf8')).toBe('the real pg\n');
    expect(await readdir(join(outside, 'pg'))).toEqual(['x.js']);
    // The refusal is per file: the rest of the turn still happens.
    expect(await readFile(join(worktree, 'src/ok.js'), 'utf8')).toBe('ok');
  });

  it('a write to a symlinked file pointing outside is refused', async () => {
    await symlink(join(outside, 'pg', 'x.js'), join(worktree, 'src', 'link.js'));
    const lines = await play({ write: { 'src/link.js': 'patched\n' } });
    expect(lines).toContain('refused to write src/link.js: it leads out of the worktree (a symlink or ..)');
    expect(await readFile(join(outside, 'pg', 'x.js'), 'utf8')).toBe('the real pg\n');
  });

  it('a dangling link is refused, to a file or a folder: a write would create its target outside', async () => {
    await symlink(join(outside, 'escaped.txt'), join(worktree, 'notes.txt'));
    await symlink(join(outside, 'nowhere'), join(worktree, 'danglingdir'));
    const lines = await play({ write: { 'notes.txt': 'escaped', 'danglingdir/x.js': 'x', 'src/ok.js': 'ok' } });
    expect(lines).toContain('refused to write notes.txt: it leads out of the worktree (a symlink or ..)');
    expect(lines).toContain('refused to write danglingdir/x.js: it leads out of the worktree (a symlink or ..)');
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    expect(existsSync(join(outside, 'nowhere'))).toBe(false);
    expect(await readFile(join(worktree, 'src/ok.js'), 'utf8')).toBe('ok');
  });

  it('a name that merely starts with two dots is inside', async () => {
    const lines = await play({ write: { 'src/..notes': 'n' } });
    expect(lines).toContain('wrote src/..notes (1 bytes)');
  });

  it('a delete through a symlinked parent is refused; the file outside is still there', async () => {
    const lines = await play({ delete: ['node_modules/pg/x.js', 'node_modules/pg'] });
    expect(lines).toContain('refused to delete node_modules/pg/x.js: it leads out of the worktree (a symlink or ..)');
    expect(lines).toContain('refused to delete node_modules/pg: it leads out of the worktree (a symlink or ..)');
    expect(await readFile(join(outside, 'pg', 'x.js'), 'utf8')).toBe('the real pg\n');
  });

  it('a delete inside works, of a file or a folder', async () => {
    await writeFile(join(worktree, 'src', 'gone.js'), 'x');
    await mkdir(join(worktree, 'old', 'deep'), { recursive: true });
    await writeFile(join(worktree, 'old', 'deep', 'a.js'), 'x');
    const lines = await play({ delete: ['src/gone.js', 'old'] });
    expect(lines).toEqual(expect.arrayContaining(['deleted src/gone.js', 'deleted old']));
    expect(existsSync(join(worktree, 'src', 'gone.js'))).toBe(false);
    expect(existsSync(join(worktree, 'old'))).toBe(false);
    expect(existsSync(join(worktree, 'node_modules'))).toBe(true);
  });

  it('a symlink that stays inside the worktree is followed', async () => {
    await symlink(join(worktree, 'src'), join(worktree, 'lib'));
    const lines = await play({ write: { 'lib/b.js': 'b' } });
    expect(lines).toContain('wrote lib/b.js (1 bytes)');
    expect(await readFile(join(worktree, 'src', 'b.js'), 'utf8')).toBe('b');
  });

  it('the scenario itself refuses `..` and absolute paths before any turn', () => {
    expect(() => parseScenario(JSON.stringify({ turns: [{ role: 'driver', write: { '../x.js': 'x' } }] }), 's.json')).toThrow(
      /must be a relative path inside the worktree/,
    );
    expect(() => parseScenario(JSON.stringify({ turns: [{ role: 'driver', delete: ['/etc/passwd'] }] }), 's.json')).toThrow(
      /must be a relative path inside the worktree/,
    );
  });
});

describe('scripted agent: a turn the scenario does not have', () => {
  it('is declined, saying which (round and feature included), and nothing is written; a review with none accepts', async () => {
    const scenario = parseScenario(
      JSON.stringify({ turns: [{ role: 'navigator', item: 'T1', round: 1, write: { 'test/t1.test.js': 'x' } }] }),
      'scenario.json',
    );
    const request: TurnRequest = { role: 'navigator', step: 'red', item: 'T1', attempt: 1, round: 2, worktree, prompt: '', failure: null, env: {} };
    const result = await scriptedAgent(scenario).turn(request);
    expect(result.declined).toBe('the scripted scenario has no turn for navigator red T1 attempt 1 in round 2');
    expect(result.transcript).toContain('[scripted] the scripted scenario has no turn for navigator red T1 attempt 1 in round 2: the agent does nothing.');
    expect(await readdir(worktree)).toEqual(['node_modules', 'src']);
    const review = await scriptedAgent(scenario).turn({ ...request, step: 'review' });
    expect(review.declined).toBeUndefined();
    expect(review.review).toEqual({ decision: 'accept', note: null });
  });
});
