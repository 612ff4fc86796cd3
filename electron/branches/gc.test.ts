import { describe, expect, it } from 'vitest';
import { planGc, surveyPairs, type PairFacts } from './gc';
import type { DatabaseBranch } from './provider';
import type { RegistryEntry } from './registry';

const NOW = new Date('2026-03-01T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

const entry = (name: string, gitBranch: string, parent: string | null, extra: Partial<RegistryEntry> = {}): RegistryEntry => ({
  name,
  gitBranch,
  parent,
  worktree: parent === null ? null : `/data/worktrees/${name}`,
  createdAt: hoursAgo(1),
  ttlHours: null,
  masked: false,
  ...extra,
});
const db = (name: string, parent: string | null, depth: number): DatabaseBranch => ({ name, parent, createdAt: hoursAgo(1), sizeBytes: 1000, depth });

function facts(overrides: Partial<PairFacts> = {}): PairFacts {
  return {
    entries: [entry('main', 'main', null), entry('feature-a', 'feature/a', 'main'), entry('exp-1', 'exp/1', 'feature-a', { ttlHours: 72 })],
    databases: [db('main', null, 0), db('feature-a', 'main', 1), db('exp-1', 'feature-a', 2)],
    gitBranches: new Set(['main', 'feature/a', 'exp/1']),
    leased: new Set(),
    tiers: { main: 'production', staging: 'staging' },
    defaultBranch: 'main',
    rootName: 'main',
    provider: 'pglite',
    ...overrides,
  };
}

describe('surveyPairs', () => {
  it('lists tier, feature and experiment in tree order with depth, expiry and no orphans', () => {
    const pairs = surveyPairs(facts());
    expect(pairs.map((p) => [p.name, p.kind, p.orphan, p.database?.depth])).toEqual([
      ['main', 'tier', null, 0],
      ['feature-a', 'feature', null, 1],
      ['exp-1', 'experiment', null, 2],
    ]);
    expect(pairs[0]!.tier).toBe('production');
    expect(pairs[2]!.expiresAt).toBe(new Date(Date.parse(hoursAgo(1)) + 72 * 3_600_000).toISOString());
    expect(pairs[1]!.expiresAt).toBeNull();
  });

  it('marks a database without its git branch, and a pair whose database is gone', () => {
    const pairs = surveyPairs(
      facts({
        gitBranches: new Set(['main', 'feature/a']),
        databases: [db('main', null, 0), db('exp-1', 'feature-a', 2), db('stray', 'main', 1)],
      }),
    );
    const byName = new Map(pairs.map((p) => [p.name, p]));
    expect(byName.get('feature-a')!.orphan).toBe('database-missing');
    expect(byName.get('exp-1')!.orphan).toBe('git-missing');
    expect(byName.get('stray')).toMatchObject({ orphan: 'git-missing', gitBranch: null, kind: 'feature' });
  });

  it('shows the root tier before it has a database, and not as an orphan', () => {
    const pairs = surveyPairs(facts({ entries: [], databases: [] }));
    expect(pairs).toEqual([expect.objectContaining({ name: 'main', kind: 'tier', database: null, orphan: null })]);
  });

  it("on a shared server, leaves another project's branches under a root of the same name alone", () => {
    const pairs = surveyPairs(
      facts({
        provider: 'postgres',
        databases: [db('main', null, 0), db('feature-a', 'main', 1), db('exp-1', 'feature-a', 2), db('theirs', 'main', 1), db('exp-2', 'feature-a', 2)],
      }),
    );
    const names = pairs.map((p) => p.name);
    expect(names).not.toContain('theirs');
    // A database below one of our own pairs is ours even when unregistered.
    expect(names).toContain('exp-2');
  });
});

describe('planGc', () => {
  it('removes orphans and expired pairs, children before parents', () => {
    const pairs = surveyPairs(
      facts({
        entries: [
          entry('main', 'main', null),
          entry('feature-a', 'feature/a', 'main', { ttlHours: 0.5 }),
          entry('exp-1', 'exp/1', 'feature-a', { ttlHours: 0.5 }),
        ],
        databases: [db('main', null, 0), db('feature-a', 'main', 1), db('exp-1', 'feature-a', 2), db('stray', 'main', 1)],
      }),
    );
    const plan = planGc(pairs, NOW);
    expect(plan.remove.map((r) => [r.name, r.reason])).toEqual([
      ['stray', 'git-missing'],
      ['exp-1', 'expired'],
      ['feature-a', 'expired'],
    ]);
    expect(plan.kept).toEqual([]);
  });

  it('never removes a tier or an active pair, nor the parent of a pair that stays', () => {
    const pairs = surveyPairs(
      facts({
        entries: [
          entry('main', 'main', null),
          entry('feature-a', 'feature/a', 'main', { ttlHours: 0.5 }),
          entry('exp-1', 'exp/1', 'feature-a', { ttlHours: 0.5 }),
        ],
        gitBranches: new Set(['feature/a', 'exp/1']),
        leased: new Set(['exp-1']),
      }),
    );
    const plan = planGc(pairs, NOW);
    expect(plan.remove).toEqual([]);
    expect(plan.kept).toEqual(
      expect.arrayContaining([
        { name: 'main', gitBranch: 'main', reason: 'tier' },
        { name: 'exp-1', gitBranch: 'exp/1', reason: 'active' },
        { name: 'feature-a', gitBranch: 'feature/a', reason: 'active' },
      ]),
    );
  });

  it('keeps pairs that are neither orphaned nor expired', () => {
    expect(planGc(surveyPairs(facts()), NOW)).toEqual({ remove: [], kept: [] });
  });
});
