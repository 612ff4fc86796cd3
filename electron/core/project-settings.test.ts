/**
 * The Settings screen's project settings through dispatch, as every host calls them: the tunable
 * keys read with the webhook masked, an invalid change refused by project.json's schema with words
 * naming the key and the file left byte for byte, a valid one saved with the rest of the file kept,
 * and a Consort project shown with nothing saved.
 */
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batonFeature } from '../gates/gate-project.fixture';
import { makeTempDir, writeTree } from '../project/temp-project.fixture';
import { CONSORT, openForSettings } from './settings-dispatch.fixture';

const SECRET = 'https://ntfy.sh/baton-secret-topic-7f3a?auth=tok3n';
let base: string;

beforeAll(async () => {
  base = await makeTempDir('baton-project-settings-');
});
afterAll(() => rm(base, { recursive: true, force: true }));

const open = (path: string) => openForSettings(base, path);

async function shop(name: string): Promise<{ root: string; file: string }> {
  const root = join(base, name);
  const settings = JSON.parse(await readFile(resolve(import.meta.dirname, '../../resources/demo/.baton/project.json'), 'utf8')) as object;
  await writeTree(root, { ...batonFeature(), '.baton/project.json': { ...settings, notify: { webhook: SECRET } } });
  return { root, file: join(root, '.baton', 'project.json') };
}

describe('settings:project, settings:check, settings:save', () => {
  it('shows the tunable keys with the webhook masked, and never the secret', async () => {
    const { root } = await shop('read');
    const call = await open(root);
    const view = await call('settings:project', {});
    expect(view).toMatchObject({
      ok: true,
      value: {
        readOnly: null,
        settings: { repairBudget: 3, testTimeoutSeconds: 120, deploy: { start: 'node scripts/server.js' } },
        webhook: { kind: 'url', masked: 'https://ntfy.sh/…' },
      },
    });
    expect(JSON.stringify(view)).not.toContain('secret-topic');
  });

  it('refuses an invalid change with the key and why, and writes nothing', async () => {
    const { root, file } = await shop('refuse');
    const call = await open(root);
    const before = await readFile(file, 'utf8');

    const check = await call('settings:check', { changes: { repairBudget: 11, smells: { stallFactor: 1 } } });
    expect(check).toMatchObject({
      ok: true,
      value: { issues: [{ path: 'repairBudget' }, { path: 'smells.stallFactor', message: expect.stringContaining('more than 1') }] },
    });

    const save = await call('settings:save', { changes: { repairBudget: 11, gates: { acceptance: ['@nobody'] } } });
    expect(save.ok).toBe(false);
    if (save.ok) return;
    expect(save.error.code).toBe('invalid-settings');
    expect(save.error.message).toMatch(/^Not saved: repairBudget .*; gates .*nobody/);
    expect(save.error.message).toContain('project.json is unchanged');
    // A key the screen does not tune, and a malformed request, are refused by the contract itself.
    expect(await call('settings:save', { changes: { testCommand: 'rm -rf /' } })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(await call('settings:save', { changes: {} })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', message: expect.stringContaining('nothing to save') },
    });
    // A bad webhook is explained without quoting it.
    const hook = await call('settings:save', { changes: { notify: { webhook: 'ftp://ntfy.sh/other-secret' } } });
    expect(hook).toMatchObject({ ok: false, error: { message: expect.stringContaining('notify.webhook must be an http(s) URL') } });
    expect(JSON.stringify(hook)).not.toContain('other-secret');
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('saves valid changes atomically, keeping every other key, and removes a key set to null', async () => {
    const { root, file } = await shop('save');
    const call = await open(root);
    const before = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const changes = {
      repairBudget: 5,
      parallel: 2,
      gates: { acceptance: ['@po'] },
      approverRoles: { po: ['ada@example.com'] },
      smells: { gateWaitHours: 8 },
      mutation: { minScore: 0.8 },
      notify: null,
    };
    const saved = await call('settings:save', { changes });
    expect(saved).toMatchObject({ ok: true, value: { settings: { repairBudget: 5, parallel: 2, smells: { gateWaitHours: 8 } }, webhook: { kind: 'none' } } });
    const after = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const { notify: _n, ...kept } = before;
    expect(after).toEqual({
      ...kept,
      repairBudget: 5,
      parallel: 2,
      gates: { acceptance: ['@po'] },
      approverRoles: { po: ['ada@example.com'] },
      smells: { gateWaitHours: 8 },
      mutation: { minScore: 0.8 },
    });
  });

  it('shows a Consort project read-only and saves nothing', async () => {
    const call = await open(CONSORT);
    expect(await call('settings:project', {})).toMatchObject({ ok: true, value: { readOnly: expect.stringContaining('never writes it'), file: null } });
    expect(await call('settings:save', { changes: { repairBudget: 4 } })).toMatchObject({ ok: false, error: { code: 'read-only' } });
  });
});
