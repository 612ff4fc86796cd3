/**
 * e2e/fixtures/consort-recorded: a Consort project in the field names Consort writes today
 * (asA / iWantTo / soThat, per-AC cycle files with red_at / green_at, a promote gate over
 * `promote_ref`), read, judged and verified as its files say — and tampered with in a copy.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectView } from '../../shared/model';
import { loadProject } from '../core/load-project';
import { verifyProject } from '../core/verify-project';
import { makeTempDir, removeDir } from '../project/temp-project.fixture';

const FIXTURE = path.resolve(import.meta.dirname, '../../e2e/fixtures/consort-recorded');
const F = 'F1-stock-visibility';

const open = async (dir: string) => {
  const loaded = await loadProject(dir);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
};
const feature = (view: ProjectView) => view.features.find((f) => f.id === F)!;

describe('the consort-recorded fixture', () => {
  it("is named by the product, reads Consort's story fields and finds no problem", async () => {
    const { view } = await open(FIXTURE);
    expect(view).toMatchObject({ name: 'StockFlow', layout: 'consort', readOnly: true, problems: [] });
    const [s1, s2] = feature(view).stories;
    expect(s1).toMatchObject({
      id: 'S1-file-stock',
      title: 'S1-file-stock',
      asA: 'warehouse team member',
      iWant: 'file a stock record for a SKU at a location',
      soThat: 'the system knows what is on the shelf',
      status: 'done',
    });
    // An older recording still carries a title and a status of its own.
    expect(s2).toMatchObject({ title: 'Stock by location', iWant: 'see stock by location', status: 'building' });
    expect(feature(view).testList.map((t) => [t.id, t.storyId, t.status])).toEqual([
      ['T1', 'S1-file-stock', 'refactored'],
      ['T2', 'S1-file-stock', 'green'],
      ['T3', 'S2-stock-by-location-table', 'red'],
      ['T4', 'S2-stock-by-location-table', 'pending'],
    ]);
  });

  it('reads the per-AC cycle files with their times, attempts, verdict and review', async () => {
    const { view } = await open(FIXTURE);
    expect(feature(view).cycles).toBe(2);
    expect(feature(view).cycleRuns).toEqual([
      {
        id: 'cycle-001',
        source: 'consort',
        items: ['T1', 'T2'],
        story: 'S1-file-stock',
        ac: 'AC1-file-stock-record',
        redAt: '2026-08-01T05:05:00.000Z',
        greenAt: '2026-08-01T05:09:30.000Z',
        refactoredAt: '2026-08-01T05:12:00.000Z',
        attempts: null,
        counts: null,
        verdict: 'passed',
        review: 'refactor requested: extract the quantity check',
        outcome: 'refactored',
        file: `.consort/cycles/${F}/S1-file-stock/AC1-file-stock-record/cycle-001.json`,
        record: null,
      },
      {
        id: 'cycle-001',
        source: 'consort',
        items: ['T3'],
        story: 'S2-stock-by-location-table',
        ac: 'AC1-table-lists-stock-by-location',
        redAt: '2026-08-01T05:15:00.000Z',
        greenAt: null,
        refactoredAt: null,
        // green-failure.json: two repair rounds so far, so this is the third GREEN attempt.
        attempts: 3,
        counts: null,
        verdict: null,
        review: null,
        outcome: 'red',
        file: `.consort/cycles/${F}/S2-stock-by-location-table/AC1-table-lists-stock-by-location/cycle-001.json`,
        record: null,
      },
    ]);
  });

  it('shows the promote gate approved as a reference, not a file, and verifies intact', async () => {
    const project = await open(FIXTURE);
    const gates = feature(project.view).gates;
    expect(gates.map((g) => `${g.name}:${g.status}`)).toEqual(['spec:approved', 'plan:approved', 'test_list:approved', 'deploy:approved', 'promote:approved']);
    expect(gates.find((g) => g.name === 'promote')!.artifacts).toEqual([
      { name: 'promote_ref', sha256: 'c6ea6966bc4a492e7c324989d9bac150e83c0c0fee867eb3eed741030fbed949', kind: 'reference' },
    ]);
    const report = await verifyProject(project, { configDir: path.join(os.tmpdir(), 'baton-no-config') });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.gates.find((g) => g.gate === 'promote')).toMatchObject({ status: 'approved', drift: [], references: ['promote_ref'] });
  });

  describe('in a copy', () => {
    let root: string;
    const featureDir = () => path.join(root, '.consort/features', F);
    beforeEach(async () => {
      root = await makeTempDir('baton-consort-recorded-');
      await fs.cp(FIXTURE, root, { recursive: true });
    });
    afterEach(() => removeDir(root));

    it('a deleted approved file is drift even without its extension in the key list', async () => {
      await fs.rm(path.join(featureDir(), 'plan.json'));
      const project = await open(root);
      const plan = feature(project.view).gates.find((g) => g.name === 'plan')!;
      expect(plan.status).toBe('drifted');
      expect(plan.drift).toEqual([{ artifact: 'plan.json', expected: expect.any(String), actual: null }]);
      const report = await verifyProject(project, { configDir: path.join(os.tmpdir(), 'baton-no-config') });
      expect(report.ok).toBe(false);
      // Problems and verify say the same thing.
      expect(project.view.problems.map((p) => p.file)).toEqual([`.consort/features/${F}/plan.json`]);
      expect(report.problems.map((p) => p.file)).toEqual([`.consort/features/${F}/plan.json`]);
    });

    it('a file named like the reference makes it a file again, and its content is judged', async () => {
      await fs.writeFile(path.join(featureDir(), 'promote_ref'), 'something else\n');
      const promote = feature((await open(root)).view).gates.find((g) => g.name === 'promote')!;
      expect(promote.artifacts[0]!.kind).toBe('file');
      expect(promote.status).toBe('drifted');
    });

    it('an edited test list drifts the test_list gate and is named in Problems', async () => {
      const file = path.join(featureDir(), 'test-list.json');
      await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('"status": "red"', '"status": "green"'));
      const { view } = await open(root);
      expect(feature(view).gates.find((g) => g.name === 'test_list')!.status).toBe('drifted');
      expect(view.problems).toEqual([
        { file: `.consort/features/${F}/test-list.json`, message: expect.stringMatching(/^changed after the test_list gate was approved/) },
      ]);
    });
  });
});
