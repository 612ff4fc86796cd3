/**
 * `baton verify --rerun` on a real project after a real run: at the story's commit every GREEN
 * reproduces; a commit on top that breaks the code makes verify fail naming the item and the test;
 * at a commit without the GREEN (main) there is nothing to re-run. Nothing is written to the ledger.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { greenTurn, makeCycleProject, redTurn, type CycleProject } from '../engine/cycle-project.fixture';
import { runFeature } from '../engine/run-feature';
import { main } from './main';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const exec = promisify(execFile);

interface Verified {
  ok: boolean;
  problems: { file: string; message: string }[];
  rerun: { items: number; tests: number; commit: string };
}

describe('baton verify --rerun (real runs)', () => {
  let project: CycleProject;
  const git = (...args: string[]) => exec('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: project.root });
  const verify = async () => {
    const out: string[] = [];
    const code = await main(['verify', project.root, '--rerun', '--json'], { out: (t) => out.push(t), err: () => undefined });
    return { code, json: JSON.parse(out.join('\n')) as Verified };
  };

  beforeAll(async () => {
    project = await makeCycleProject(['T1', 'T2'], { turns: [redTurn('T1'), greenTurn('T1'), redTurn('T2'), greenTurn('T2', ['T1'])] } as never);
    await seedTemplate(project.dataDir);
    expect((await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50 })).phase).toBe('acceptance');
  }, 240_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('finds nothing to re-run on main, which has no GREEN yet', async () => {
    const { code, json } = await verify();
    expect(code).toBe(0);
    expect(json.rerun).toMatchObject({ items: 0, tests: 0 });
  });

  it('re-runs every GREEN in the story commit: all reproduce', async () => {
    await git('checkout', '-q', '--detach', 'baton/f-1--s-1');
    const records = (await Ledger.forArtifactRoot(join(project.root, '.baton')).read()).records.length;
    const { code, json } = await verify();
    expect(json.problems).toEqual([]);
    expect(code).toBe(0);
    expect(json.rerun).toMatchObject({ items: 2, tests: 2 });
    expect((await Ledger.forArtifactRoot(join(project.root, '.baton')).read()).records.length).toBe(records);
  }, 240_000);

  it('fails when a commit on top breaks what a GREEN proved, naming the item and the test', async () => {
    await writeFile(
      join(project.root, 'src', 'calc.js'),
      'export const add = (a, b) => a + b;\nexport const fT1 = (a, b) => a * b;\nexport const fT2 = (a, b) => a + b;\n',
    );
    await git('commit', '-q', '-am', 'refactor: faster fT1');
    const { code, json } = await verify();
    expect(code).toBe(1);
    expect(json.ok).toBe(false);
    expect(json.problems).toHaveLength(1);
    expect(json.problems[0]).toMatchObject({ file: 'F-1/T1', message: expect.stringMatching(/^GREEN does not reproduce at \w{12}: ".*T1 adds" failed/) });
  }, 240_000);
});
