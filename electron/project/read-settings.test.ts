import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBranchSettings } from '../core/branches-settings';
import { loadSettings } from '../engine/run-feature';
import { readSettings } from './read-settings';

let root: string;
const artifactRoot = () => join(root, '.baton');
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-settings-'));
  await mkdir(artifactRoot());
});
afterEach(() => rm(root, { recursive: true, force: true }));

const error = async () => {
  const read = await readSettings(artifactRoot());
  if (read.ok) throw new Error('expected an error');
  return read.error;
};

describe('the one settings reader', () => {
  it('a missing file: not a Baton project, and how to make one', async () => {
    expect(await error()).toEqual({
      code: 'no-settings',
      message: `${join(root, '.baton', 'project.json')} is missing: this is not a Baton project. Run \`baton init ${root}\` to create it.`,
    });
  });

  it('broken JSON and invalid settings name the file and the setting', async () => {
    await writeFile(join(artifactRoot(), 'project.json'), '{"version": 1,');
    expect(await error()).toMatchObject({
      code: 'invalid-settings',
      message: expect.stringMatching(/project\.json is not valid JSON \(.+\)\. Fix it, then try again\.$/),
    });
    await writeFile(join(artifactRoot(), 'project.json'), JSON.stringify({ version: 1, name: '', repairBudget: 99 }));
    const invalid = await error();
    expect(invalid.code).toBe('invalid-settings');
    expect(invalid.message).toContain('project.json has invalid settings: name: ');
    expect(invalid.message).toContain('repairBudget: ');
  });

  it('the run and Branches report a broken file in the same words', async () => {
    await writeFile(join(artifactRoot(), 'project.json'), '{"version": 1,');
    const { message } = await error();
    await expect(loadSettings(root)).rejects.toThrow(message);
    const view = { bundle: null, layout: 'baton', readOnly: false, root, artifactRoot: artifactRoot() } as never;
    expect(await loadBranchSettings(view)).toEqual({ ok: false, error: { code: 'invalid-settings', message } });
  });
});
