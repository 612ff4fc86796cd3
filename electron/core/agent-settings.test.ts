/**
 * The Settings screen's channels through dispatch, as every host calls them: each role's agent
 * read from project.json, a save validated and written with everything else kept, a bad save or a
 * read-only project refused with project.json untouched, and the preflight of a Check.
 */
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batonFeature } from '../gates/gate-project.fixture';
import { makeTempDir, writeTree } from '../project/temp-project.fixture';
import { CONSORT, openForSettings } from './settings-dispatch.fixture';

let base: string;

beforeAll(async () => {
  base = await makeTempDir('baton-agent-settings-');
});
afterAll(() => rm(base, { recursive: true, force: true }));

const open = (path: string) => openForSettings(base, path);

describe('agents:settings, agents:save, agents:check', () => {
  it('reads, validates and saves one role, keeping the rest of project.json', async () => {
    const root = join(base, 'shop');
    // The demo's settings: a complete, valid project.json.
    const settings = JSON.parse(await readFile(resolve(import.meta.dirname, '../../resources/demo/.baton/project.json'), 'utf8')) as object;
    await writeTree(root, { ...batonFeature(), '.baton/project.json': settings });
    const call = await open(root);
    const before = await call('agents:settings', {});
    expect(before).toMatchObject({
      ok: true,
      value: {
        readOnly: null,
        roles: [
          { role: 'specAuthor' },
          { role: 'architectReviewer' },
          { role: 'dba' },
          { role: 'uxDesigner' },
          { role: 'testStrategist' },
          { role: 'navigator', config: { adapter: 'scripted' } },
          { role: 'driver' },
        ],
      },
    });

    const bad = await call('agents:save', { role: 'driver', config: { adapter: 'command' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    const refused = await call('agents:save', { role: 'driver', config: { adapter: 'claude', timeoutSeconds: 0 } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    const file = join(root, '.baton', 'project.json');
    const untouched = await readFile(file, 'utf8');

    const saved = await call('agents:save', { role: 'driver', config: { adapter: 'claude', model: 'opus', args: [] } });
    expect(saved).toMatchObject({
      ok: true,
      value: { roles: [...Array(5).fill({}), { role: 'navigator' }, { role: 'driver', config: { adapter: 'claude', model: 'opus' } }] },
    });
    const after = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect((after.agents as Record<string, unknown>).driver).toEqual({ adapter: 'claude', model: 'opus' });
    const { agents: _a, ...rest } = after;
    const { agents: _b, ...was } = JSON.parse(untouched) as Record<string, unknown>;
    expect(rest).toEqual(was);

    // Back to a bare name when only the adapter is left.
    await call('agents:save', { role: 'driver', config: { adapter: 'scripted' } });
    expect((JSON.parse(await readFile(file, 'utf8')) as { agents: Record<string, unknown> }).agents.driver).toBe('scripted');
  });

  it('refuses to save on a Consort project, and checks without saving', async () => {
    const call = await open(CONSORT);
    const view = await call('agents:settings', {});
    expect(view).toMatchObject({ ok: true, value: { readOnly: expect.stringContaining('never writes it') } });
    const save = await call('agents:save', { role: 'driver', config: { adapter: 'codex' } });
    expect(save).toMatchObject({ ok: false, error: { code: 'read-only' } });
    const check = await call('agents:check', { role: 'driver', config: { adapter: 'command', command: ['definitely-not-installed-agent'] } });
    expect(check).toMatchObject({ ok: true, value: { ok: false, problem: expect.stringContaining('definitely-not-installed-agent is not found on PATH') } });
    const bogus = await call('agents:check', { role: 'wizard', config: { adapter: 'command' } });
    expect(bogus).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
  });
});
