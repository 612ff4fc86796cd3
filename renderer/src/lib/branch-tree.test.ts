import { describe, expect, it } from 'vitest';
import { pairView } from './branch-pair.fixture';
import type { BranchPairView, MigrationState } from '../../../shared/branches';
import { blockedReason, buildForest, humanSize, markersOf, mergeFact, migrationFact, onlyTiers, visibleRows } from './branch-tree';

const pair = (name: string, patch: Partial<BranchPairView> = {}): BranchPairView => pairView(name, patch);

const main = pair('main', { kind: 'tier', tier: 'production', worktree: null });
const staging = pair('staging', { kind: 'tier', tier: 'staging', worktree: null });
const login = pair('feature-login', { gitBranch: 'feature/login', parent: 'main' });
const audit = pair('feature-audit', { gitBranch: 'feature/audit', parent: 'main' });
const spike = pair('login-spike', { parent: 'feature-login', kind: 'experiment' });

const shape = (rows: ReturnType<typeof visibleRows>) => rows.map((r) => `${'  '.repeat(r.level - 1)}${r.pair.name} ${r.position}/${r.siblings}`);

describe('the Branch tree', () => {
  it('puts tiers first, children under their parents, siblings by git branch', () => {
    const rows = visibleRows(buildForest([spike, login, staging, audit, main]), new Set());
    expect(shape(rows)).toEqual(['main 1/2', '  feature-audit 1/2', '  feature-login 2/2', '    login-spike 1/1', 'staging 2/2']);
    expect(rows.find((r) => r.pair.name === 'login-spike')).toMatchObject({ level: 3, parentName: 'feature-login', parentLabel: 'feature/login' });
    expect(rows[0]).toMatchObject({ parentName: null, parentLabel: null });
  });

  it('hides the descendants of a collapsed row', () => {
    const rows = visibleRows(buildForest([main, login, spike]), new Set(['feature-login']));
    expect(shape(rows)).toEqual(['main 1/1', '  feature-login 1/1']);
    expect(rows[1]).toMatchObject({ hasChildren: true, expanded: false });
  });

  it('shows a pair whose parent is not listed, and a parent loop, as roots instead of losing or looping', () => {
    const orphan = pair('old', { parent: 'gone', orphan: 'git-missing', gitBranch: null });
    const a = pair('a', { parent: 'b' });
    const b = pair('b', { parent: 'a' });
    const names = visibleRows(buildForest([main, orphan, a, b]), new Set()).map((r) => r.pair.name);
    expect(names.sort()).toEqual(['a', 'b', 'main', 'old']);
  });

  it('knows when only tiers exist', () => {
    expect(onlyTiers([main, staging])).toBe(true);
    expect(onlyTiers([main, login])).toBe(false);
  });
});

describe('row words', () => {
  it('prints sizes for people', () => {
    expect(humanSize(null)).toBe('—');
    expect(humanSize(512)).toBe('512 B');
    expect(humanSize(1536)).toBe('1.5 KB');
    expect(humanSize(250 * 1024 * 1024)).toBe('250 MB');
  });

  it('names every marker with a word', () => {
    const words = (p: BranchPairView) => markersOf(p, () => 'in 2 days').map((m) => m.word);
    expect(words(main)).toEqual(['production']);
    expect(words(pair('x', { masked: true, active: true, expiresAt: '2030-01-01T00:00:00Z' }))).toEqual(['masked', 'active', 'expires in 2 days']);
    expect(words(pair('x', { orphan: 'git-missing' }))).toEqual(['no git branch']);
    expect(words(pair('x', { orphan: 'database-missing' }))).toEqual(['no database']);
  });

  it('explains why reset and delete are blocked', () => {
    expect(blockedReason(main, 'delete')).toMatch(/protected production tier/);
    expect(blockedReason(pair('x', { active: true, parent: 'main' }), 'reset')).toMatch(/active cycle/);
    expect(blockedReason(pair('x', { database: null, parent: 'main' }), 'reset')).toMatch(/no database/);
    expect(blockedReason(pair('x', { database: null, parent: 'main' }), 'delete')).toBeNull();
    expect(blockedReason(login, 'reset')).toBeNull();
    expect(blockedReason(null, 'delete')).toMatch(/Select a branch/);
  });
});

describe('merge and migration words', () => {
  it('says whether a pair is merged into its parent, and nothing when that means nothing', () => {
    expect(mergeFact(pair('x', { parent: 'feature-login', merged: true }), 'feature/login')).toMatchObject({ word: 'merged into feature/login', tone: 'info' });
    expect(mergeFact(pair('x', { parent: 'main', merged: false }), 'main')?.word).toBe('not merged into main');
    // A parent not in the tree (a loop shown flat) is named by its pair name.
    expect(mergeFact(pair('x', { parent: 'main', merged: false }), null)?.word).toBe('not merged into main');
    expect(mergeFact(pair('x', { parent: 'main', merged: null }), 'main')).toBeNull();
    expect(mergeFact(main, null)).toBeNull();
  });

  it('puts each migration state in a few words, the full words in the tooltip, and warns when the database is ahead', () => {
    const state = (s: MigrationState['state'], patch: Partial<MigrationState> = {}): MigrationState => ({
      state: s,
      codeAhead: [],
      databaseAhead: [],
      changed: [],
      ...patch,
    });
    expect(migrationFact('feature/login', state('current'))).toEqual({ word: 'migrated', title: 'feature/login: migrated to the code', tone: 'success' });
    const ahead = migrationFact('main', state('code-ahead', { codeAhead: ['1_init.sql', '2_orders.sql'] }));
    expect(ahead).toMatchObject({ word: 'code ahead: 2', tone: 'info' });
    expect(ahead.title).toBe('main: code ahead of the database: 1_init.sql, 2_orders.sql not applied');
    expect(migrationFact('x', state('database-ahead', { databaseAhead: ['9_old.sql'] }))).toMatchObject({ word: 'database ahead: 1', tone: 'warning' });
    expect(migrationFact('x', state('diverged', { codeAhead: ['a'], databaseAhead: ['b'] }))).toMatchObject({ word: 'diverged', tone: 'warning' });
    expect(migrationFact('x', state('unknown'))).toMatchObject({ word: 'migrations: unknown', tone: 'muted' });
  });
});
