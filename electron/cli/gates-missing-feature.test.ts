/**
 * `baton gates` on a project whose approved feature's folder was deleted: the view no longer lists
 * the feature, but its approval stands in the ledger against nothing, so the command shows the gate
 * drifted with every approved file missing, and exits 1; and drift in words says what happened.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batonFeature } from '../gates/gate-project.fixture';
import { writeTree } from '../project/temp-project.fixture';
import { main } from './main';

const run = promisify(execFile);
const ADA = 'Ada Lovelace <ada@example.com>';

let base: string;
let repo: string;
const saved = process.env.BATON_CONFIG_DIR;

async function baton(...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: () => undefined });
  return { code, out: out.join('\n') };
}

interface GatesJson {
  features: { id: string }[];
  missingFeatures?: { id: string; folder: string; gates: { name: string; status: string; drift: { artifact: string; actual: string | null }[] }[] }[];
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-gates-missing-'));
  process.env.BATON_CONFIG_DIR = join(base, 'config');
  repo = join(base, 'shop');
  await run('git', ['init', '-q', '-b', 'main', repo]);
  expect((await baton('init', repo)).code).toBe(0);
  await writeTree(repo, { ...batonFeature('F-1'), ...batonFeature('F-2') });
  expect((await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', ADA, '--yes')).code).toBe(0);
  expect((await baton('approve', repo, '--feature', 'F-2', '--gate', 'spec', '--approver', ADA, '--yes')).code).toBe(0);
}, 60_000);

afterAll(async () => {
  process.env.BATON_CONFIG_DIR = saved;
  await rm(base, { recursive: true, force: true });
});

describe('baton gates', () => {
  it('is clean while every approved folder is there', async () => {
    const clean = await baton('gates', repo, '--json');
    expect(clean.code).toBe(0);
    expect((JSON.parse(clean.out) as GatesJson).missingFeatures).toBeUndefined();
  });

  it('says in words what drifted: changed, not in the approval', async () => {
    await writeTree(repo, { '.baton/features/F-2/stories/S-1/.hidden': 'x\n', '.baton/features/F-2/feature.json': { id: 'F-2', name: 'Renamed' } });
    const shown = await baton('gates', repo);
    expect(shown.code).toBe(1);
    expect(shown.out).toContain('feature.json changed, stories/S-1/.hidden not in the approval');
  });

  it('shows a gate whose feature folder is gone as drifted, every approved file missing, and exits 1', async () => {
    await rm(join(repo, '.baton', 'features', 'F-1'), { recursive: true });
    const json = await baton('gates', repo, '--json');
    expect(json.code).toBe(1);
    const body = JSON.parse(json.out) as GatesJson;
    expect(body.features.map((f) => f.id)).toEqual(['F-2']);
    expect(body.missingFeatures).toEqual([
      {
        id: 'F-1',
        folder: 'missing',
        gates: [
          {
            name: 'spec',
            story: null,
            status: 'drifted',
            drift: ['feature.json', 'stories/S-1/acs/AC-1.json', 'stories/S-1/acs/AC-2.json', 'stories/S-1/story.json'].map((artifact) => ({
              artifact,
              expected: expect.stringMatching(/^[0-9a-f]{64}$/),
              actual: null,
            })),
          },
        ],
      },
    ]);
    const text = await baton('gates', repo);
    expect(text.code).toBe(1);
    expect(text.out).toContain('F-1  (its folder is missing');
    expect(text.out).toMatch(/spec\s+drifted\s+feature\.json missing, stories\/S-1\/acs\/AC-1\.json missing/);
  });
});
