/**
 * The acceptance gate's evidence summary after a real run (real git, PGlite, node:test): it must
 * match the Board item for item, each AC with the items that cover it, each green item with the
 * GREEN attestation that proves it. The summary is folded from the ledger, never from the files.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateEvidence, LedgerRecord } from '../../shared/ledger';
import type { Feature } from '../../shared/model';
import { Ledger } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { loadProject } from '../core/load-project';
import { Workbench } from '../core/workbench';
import { featureStatus } from './status';
import { runFeature } from './run-feature';
import { calcSource, makeCycleProject, testFile, type CycleProject } from './cycle-project.fixture';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const red = (item: string) => ({
  role: 'navigator' as const,
  item,
  write: { [`test/${item}.test.js`]: testFile([[`${item} adds`, `assert.equal(calc.f${item}?.(2, 3), 5);`]]) },
});

describe('the acceptance summary after a real run', () => {
  let project: CycleProject;
  let records: readonly LedgerRecord[];
  let board: Feature;
  let evidence: GateEvidence;

  beforeAll(async () => {
    const scenario = {
      turns: [
        red('T1'),
        { role: 'driver', item: 'T1', write: { 'src/calc.js': calcSource(['T1']) } },
        red('T2'),
        { role: 'driver', item: 'T2', write: { 'src/calc.js': calcSource(['T1', 'T2']) } },
        // T3's Navigator writes nothing: no RED twice, escalated.
      ],
    };
    const items = [
      { id: 'T1', description: 'item T1', ac_id: 'AC-1', status: 'pending' },
      { id: 'T2', description: 'item T2', ac_id: 'AC-2', status: 'pending' },
      { id: 'T3', description: 'item T3', ac_id: 'AC-2', status: 'pending' },
    ];
    project = await makeCycleProject([], scenario as never, {
      repairBudget: 0,
      extra: {
        '.baton/features/F-1/stories/S-1/acs/AC-2.json': { id: 'AC-2', title: 'Twice', given: 'g', when: 'w', then: 't' },
        '.baton/features/F-1/test-list.json': { items },
      },
    });
    await seedTemplate(project.dataDir);
    await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir });
    records = (await Ledger.forArtifactRoot(join(project.root, '.baton')).read()).records;
    const loaded = await loadProject(project.root);
    if (!loaded.ok) throw new Error(loaded.error.message);
    board = loaded.value.view.features[0]!;
    const workbench = new Workbench({ host: 'cli', version: 'test', configDir: join(project.root, '..', 'config') });
    await workbench.open(project.root);
    const result = await workbench.evidence({ feature: 'F-1', story: 'S-1', gate: 'acceptance' });
    await workbench.close();
    if (!result.ok) throw new Error(result.error.message);
    evidence = result.value;
  }, 300_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('says what the Board says, item for item (and not what test-list.json says: every item is pending there)', () => {
    expect(board.testList.map((t) => [t.id, t.status])).toEqual([
      ['T1', expect.stringMatching(/^(green|refactored)$/)],
      ['T2', expect.stringMatching(/^(green|refactored)$/)],
      ['T3', 'escalated'],
    ]);
    expect(evidence.summary.items.map((i) => [i.id, i.status])).toEqual(board.testList.map((t) => [t.id, t.status]));
    expect(evidence.summary).toMatchObject({ source: 'ledger', story: 'S-1', testItems: 3, escalations: 1, rejectedRed: 2 });
    expect(evidence.summary.cycles).toBe(board.cycles);
  });

  it('lists every AC with its items; an AC is proven only when each of its items has a GREEN attestation', () => {
    expect(evidence.summary.acs.map((ac) => [ac.id, ac.items, ac.proven])).toEqual([
      ['AC-1', ['T1'], true],
      ['AC-2', ['T2', 'T3'], false],
    ]);
  });

  it("links each green item to the orchestrator's GREEN record and commit", () => {
    for (const id of ['T1', 'T2']) {
      const item = evidence.summary.items.find((i) => i.id === id)!;
      const greened = records.find((r) => r.type === 'cycle.greened' && r.subject.item === id)!;
      expect(item.green).toEqual({ seq: greened.seq, hash: greened.hash, at: greened.at, commit: greened.data.commit });
      expect(item.lastRun).toMatchObject({ verdict: expect.any(String), failed: 0 });
    }
    expect(evidence.summary.items.find((i) => i.id === 'T3')!.green).toBeNull();
  });

  it('baton status reports the same fold', async () => {
    const status = await featureStatus(project.root, 'F-1');
    expect(status.items.byStatus).toEqual(evidence.summary.byStatus);
    expect(status.rejectedRed).toBe(2);
  });
});
