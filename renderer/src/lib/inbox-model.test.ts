import { describe, expect, it } from 'vitest';
import type { Feature, Gate, ProjectView } from '../../../shared/model';
import { inboxEntries, nextAfter } from './inbox-model';

const gate = (name: string, status: Gate['status'], pendingSince: string | null, story: string | null = null): Gate => ({
  name,
  status,
  approver: null,
  approvedAt: null,
  artifacts: [],
  story,
  drift: [],
  note: null,
  pendingSince,
});

const feature = (id: string, gates: Gate[]): Feature => ({ id, name: id, description: '', stories: [], testList: [], gates, cycles: 0 });

const view = (features: Feature[], layout: ProjectView['layout'] = 'baton'): ProjectView => ({
  root: '/p',
  name: 'p',
  layout,
  artifactRoot: '/p/.baton',
  readOnly: false,
  bundle: null,
  features,
  problems: [],
});

describe('inboxEntries', () => {
  it('lists decidable gates oldest first, then those waiting on an earlier gate, and leaves decided ones out', () => {
    const entries = inboxEntries(
      view([
        feature('F-1', [
          gate('spec', 'approved', null),
          gate('design', 'open', '2025-03-02T00:00:00Z'),
          gate('deploy', 'open', null),
          gate('acceptance', 'rejected', '2025-03-01T00:00:00Z', 'S-1'),
        ]),
        feature('F-2', [gate('spec', 'drifted', '2025-03-03T00:00:00Z'), gate('plan', 'open', '2025-01-01T00:00:00Z')]),
      ]),
    );
    expect(entries.map((e) => `${e.ref.feature}/${e.ref.gate}/${e.ref.story ?? ''}`)).toEqual([
      'F-1/design/',
      'F-2/spec/',
      'F-1/acceptance/S-1',
      'F-1/deploy/',
    ]);
    expect(entries.map((e) => e.waitsFor)).toEqual([null, null, 'test_list', 'test_list']);
  });

  it('orders by time among gates that can be decided', () => {
    const entries = inboxEntries(
      view([feature('F-1', [gate('spec', 'open', '2025-03-02T00:00:00Z')]), feature('F-2', [gate('spec', 'open', null)]), feature('F-3', [gate('spec', 'rejected', '2025-03-01T00:00:00Z')])]),
    );
    expect(entries.map((e) => e.ref.feature)).toEqual(['F-3', 'F-1', 'F-2']);
  });

  it('says which earlier gate a Baton gate waits for', () => {
    const [spec, design] = inboxEntries(view([feature('F-1', [gate('spec', 'open', null), gate('design', 'open', null)])]));
    expect(spec!.waitsFor).toBeNull();
    expect(design!.waitsFor).toBe('spec');
  });
});

describe('nextAfter', () => {
  const entries = inboxEntries(
    view([feature('F-1', [gate('spec', 'open', '2025-01-01T00:00:00Z'), gate('design', 'open', '2025-01-02T00:00:00Z'), gate('test_list', 'open', '2025-01-03T00:00:00Z')])]),
  );
  const ref = (g: 'spec' | 'design' | 'test_list') => ({ feature: 'F-1', gate: g, story: null });

  it('opens the one that followed the decided gate, or the one before at the end', () => {
    expect(nextAfter(entries, ref('design'))?.gate).toBe('test_list');
    expect(nextAfter(entries, ref('test_list'))?.gate).toBe('design');
  });

  it('opens the oldest when the decided gate already left the list, and nothing when none is left', () => {
    expect(nextAfter(entries, { feature: 'F-9', gate: 'spec', story: null })?.gate).toBe('spec');
    expect(nextAfter(entries.slice(0, 1), ref('spec'))).toBeNull();
  });
});
