import { describe, expect, it } from 'vitest';
import type { Feature, ProjectView } from '../../shared/model';
import { formatInspect, inspectReport } from './index';

const feature = (over: Partial<Feature>): Feature => ({
  id: 'F-1',
  name: 'Checkout',
  description: '',
  stories: [],
  testList: [],
  gates: [],
  cycles: 0,
  cycleRuns: [],
  escalations: [],
  amendments: [],
  lockedTests: [],
  runBlock: null,
  ...over,
});

const view = (features: Feature[], problems: ProjectView['problems'] = []): ProjectView => ({
  root: '/p',
  name: 'p',
  layout: 'consort',
  artifactRoot: '/p/.consort',
  readOnly: true,
  bundle: null,
  features,
  problems,
});

const item = (id: string, status: 'pending' | 'red' | 'green', kind: 'behavior' | 'client' | null) => ({
  id,
  description: '',
  acId: 'AC-1',
  storyId: 'S-1',
  status,
  kind,
  scenarioFile: null,
  invariantId: null,
});

describe('inspectReport', () => {
  it('zero-fills every status and kind, even for an empty test list', () => {
    const report = inspectReport(view([feature({})]));
    expect(report).toEqual({
      layout: 'consort',
      features: [
        {
          id: 'F-1',
          name: 'Checkout',
          stories: [],
          testList: {
            total: 0,
            byStatus: { pending: 0, red: 0, green: 0, refactored: 0, escalated: 0, skipped: 0 },
            byKind: { behavior: 0, fitness: 0, client: 0, unspecified: 0 },
          },
          gates: [],
          cycles: 0,
        },
      ],
      problems: [],
    });
  });

  it('counts items by status and kind and copies stories, gates and problems', () => {
    const report = inspectReport(
      view(
        [
          feature({
            stories: [{ id: 'S-1', title: '', asA: '', iWant: '', soThat: '', status: 'building', experiment: null, acs: [] }],
            testList: [item('T1', 'red', 'behavior'), item('T2', 'red', null), item('T3', 'green', 'client')],
            gates: [
              {
                name: 'spec',
                status: 'approved',
                approver: 'po',
                approvedAt: 'T',
                artifacts: [{ name: 'a', sha256: 'b', kind: 'file' }],
                story: 's',
                drift: [],
                note: null,
                pendingSince: null,
                blockedBy: null,
              },
            ],
            cycles: 2,
          }),
        ],
        [{ file: 'x.json', message: 'is broken' }],
      ),
    );
    const [only] = report.features;
    expect(only!.stories).toEqual([{ id: 'S-1', status: 'building' }]);
    expect(only!.testList).toEqual({
      total: 3,
      byStatus: { pending: 0, red: 2, green: 1, refactored: 0, escalated: 0, skipped: 0 },
      byKind: { behavior: 1, fitness: 0, client: 1, unspecified: 1 },
    });
    // A per-story gate names its story, so two acceptance rows are told apart.
    expect(only!.gates).toEqual([
      { name: 'spec', story: 's', status: 'approved', approver: 'po', approvedAt: 'T', decidedBy: null, artifacts: [{ name: 'a', sha256: 'b', kind: 'file' }] },
    ]);
    expect(only!.cycles).toBe(2);
    expect(report.problems).toEqual([{ file: 'x.json', message: 'is broken' }]);
  });
});

describe('formatInspect', () => {
  it('prints a header, each feature, an aligned gate table and the problems', () => {
    const text = formatInspect(
      inspectReport(
        view(
          [
            feature({
              testList: [item('T1', 'pending', 'behavior')],
              gates: [
                {
                  name: 'spec',
                  status: 'approved',
                  approver: 'po@shop.example',
                  approvedAt: '2025-03-10T10:00:00Z',
                  artifacts: [],
                  story: null,
                  drift: [],
                  note: null,
                  pendingSince: null,
                  blockedBy: null,
                },
                {
                  name: 'test_list',
                  status: 'open',
                  approver: null,
                  approvedAt: null,
                  artifacts: [],
                  story: null,
                  drift: [],
                  note: null,
                  pendingSince: null,
                  blockedBy: null,
                },
              ],
              cycles: 4,
            }),
            feature({ id: 'F-2', name: 'Inventory' }),
          ],
          [{ file: '.consort/features/F-2/architecture.json', message: 'is not valid JSON' }],
        ),
      ),
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('Layout: consort  Features: 2  Problems: 1');
    expect(text).toContain('F-1  Checkout');
    expect(text).toContain('F-2  Inventory');
    expect(text).toContain('  Tests: 1 total: 1 pending, 0 red, 0 green, 0 refactored, 0 escalated, 0 skipped');
    expect(text).toContain('  Kinds: 1 behavior, 0 fitness, 0 client, 0 unspecified');
    expect(lines).toContain('    name       status    decided by       decided at');
    expect(lines).toContain('    spec       approved  po@shop.example  2025-03-10T10:00:00Z');
    expect(lines).toContain('    test_list  open      -                -');
    expect(text).toContain('  Cycles: 4');
    expect(text).toContain('Problems (1)\n  .consort/features/F-2/architecture.json: is not valid JSON');
  });

  it('says so when there are no problems, stories or gates', () => {
    const text = formatInspect(inspectReport(view([feature({})])));
    expect(text).toContain('Stories: none');
    expect(text).toContain('Gates: none');
    expect(text).toContain('Problems: none');
  });
});
