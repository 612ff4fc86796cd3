/** The committed fixture e2e/fixtures/consort-shop, read exactly as EXPECTED.md describes it. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Feature, ProjectView } from '../../shared/model';
import { inspectReport, readProject } from './index';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/fixtures/consort-shop');

let view: ProjectView;
beforeAll(async () => {
  const result = await readProject(FIXTURE);
  if (!result.ok) throw new Error(result.error.message);
  view = result.value;
});

const feature = (id: string): Feature => {
  const found = view.features.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no feature ${id}`);
  return found;
};

describe('the consort-shop fixture', () => {
  it('is a read-only Consort project with two features', () => {
    expect(view).toMatchObject({
      root: FIXTURE,
      name: 'consort-shop',
      layout: 'consort',
      artifactRoot: path.join(FIXTURE, '.consort'),
      readOnly: true,
    });
    expect(view.features.map((f) => [f.id, f.name])).toEqual([
      ['F-checkout', 'Checkout'],
      ['F-inventory', 'Inventory'],
    ]);
    expect(feature('F-inventory').description).toBe('Staff see stock levels and reorder before items run out.');
  });

  it('reports the one malformed file as a single located problem', () => {
    expect(view.problems).toHaveLength(1);
    const [problem] = view.problems;
    expect(problem!.file).toBe('.consort/features/F-inventory/architecture.json');
    expect(problem!.message).toMatch(/^is not valid JSON: .*line 4, column 3/);
  });

  it('reads stories with their sentences, statuses, experiments and ACs', () => {
    const checkout = feature('F-checkout');
    expect(checkout.stories.map((s) => [s.id, s.status, s.acs.map((ac) => ac.id)])).toEqual([
      ['S-1', 'done', ['AC-1', 'AC-2']],
      ['S-2', 'building', ['AC-3', 'AC-4', 'AC-5']],
      ['S-3', 'awaiting-gate', ['AC-6']],
    ]);
    const [s1, s2, s3] = checkout.stories;
    expect(s1).toMatchObject({ title: 'Pay by card', asA: 'shopper', iWant: 'to pay for my basket with a card' });
    expect(s1!.experiment).toEqual({ branch: 'exp/F-checkout/S-1', parent: 'feature/F-checkout', status: 'merged' });
    // S-2 is written in camelCase with story_id; it must read the same.
    expect(s2).toMatchObject({ id: 'S-2', asA: 'shopper', soThat: 'I pay the promoted price' });
    expect(s3!.experiment).toBeNull();
    expect(s1!.acs[1]!.then).toBe('the order stays unpaid\nthe shopper sees why the payment failed');
    expect(s2!.acs[0]).toMatchObject({ id: 'AC-3', given: 'a basket totalling 50.00 and the code SAVE10' });

    const inventory = feature('F-inventory');
    expect(inventory.stories.map((s) => [s.id, s.status, s.experiment?.branch ?? null])).toEqual([
      ['S-1', 'ready', 'exp/F-inventory/S-1'],
      ['S-2', 'designing', null],
    ]);
  });

  it('keeps test lists in file order with story links, kinds and extras', () => {
    const checkout = feature('F-checkout').testList;
    expect(checkout.map((t) => [t.id, t.storyId, t.status, t.kind])).toEqual([
      ['T1', 'S-1', 'refactored', 'behavior'],
      ['T2', 'S-1', 'green', 'fitness'],
      ['T3', 'S-1', 'green', 'behavior'],
      ['T4', 'S-1', 'refactored', 'client'],
      ['T5', 'S-2', 'red', 'behavior'],
      ['T6', 'S-2', 'pending', 'behavior'],
      ['T7', 'S-2', 'pending', null],
      ['T8', 'S-3', 'skipped', 'behavior'],
    ]);
    expect(checkout[1]!.invariantId).toBe('INV-no-double-charge');
    expect(checkout[3]!.scenarioFile).toBe('e2e/checkout/declined-card.spec.ts');
    expect(feature('F-inventory').testList.map((t) => [t.id, t.acId, t.status])).toEqual([
      ['T1', 'AC-1', 'green'],
      ['T2', 'AC-1', 'red'],
      ['T3', 'AC-2', 'pending'],
      ['T4', 'AC-2', 'pending'],
      ['T5', 'AC-3', 'pending'],
      ['T6', 'AC-3', 'skipped'],
    ]);
  });

  it('matches the counts in EXPECTED.md', () => {
    const report = inspectReport(view);
    expect(report.features.map((f) => [f.id, f.testList, f.cycles])).toEqual([
      [
        'F-checkout',
        {
          total: 8,
          byStatus: { pending: 2, red: 1, green: 2, refactored: 2, escalated: 0, skipped: 1 },
          byKind: { behavior: 5, fitness: 1, client: 1, unspecified: 1 },
        },
        4,
      ],
      [
        'F-inventory',
        {
          total: 6,
          byStatus: { pending: 3, red: 1, green: 1, refactored: 0, escalated: 0, skipped: 1 },
          byKind: { behavior: 3, fitness: 1, client: 1, unspecified: 1 },
        },
        1,
      ],
    ]);
  });

  it('reads gates, including the sprint gate, with approvers and artifact hashes', () => {
    const checkout = feature('F-checkout').gates;
    expect(checkout.map((g) => [g.name, g.status, g.approver, g.story])).toEqual([
      ['spec', 'approved', 'po@shop.example', null],
      ['plan', 'approved', 'po@shop.example', null],
      ['test_list', 'approved', 'lead@shop.example', null],
      ['deploy', 'open', null, null],
      ['promote', 'withdrawn', null, null],
      ['acceptance', 'open', null, 'sprint-1'],
    ]);
    expect(checkout[0]).toMatchObject({
      approvedAt: '2025-03-10T10:00:00Z',
      artifacts: [{ name: 'feature-spec.json', sha256: 'c33d3f2341ce8e9031f8fc825bcea6ccd6d9c0e32755b5c7b70182b6ff54309d' }],
    });
    expect(checkout[1]!.artifacts.map((a) => a.name)).toEqual(['architecture.json', 'db-design.json']);
    expect(feature('F-inventory').gates.map((g) => [g.name, g.status])).toEqual([
      ['spec', 'approved'],
      ['plan', 'superseded'],
      ['test_list', 'open'],
    ]);
  });

  it('reads the same features when the .consort folder itself is opened', async () => {
    const result = await readProject(path.join(FIXTURE, '.consort'));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.layout).toBe('consort');
    expect(result.value.features.map((f) => f.testList.length)).toEqual([8, 6]);
    expect(result.value.problems.map((p) => p.file)).toEqual(['features/F-inventory/architecture.json']);
  });
});
