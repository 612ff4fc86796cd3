/**
 * What the board should show, computed from the fixture's own test-list.json files so the
 * specs follow the fixture when it changes. Consort writes a test list either as
 * `{feature_id, items: [...]}` or as a bare array.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_DIR } from './paths';

export const STATUSES = ['pending', 'red', 'green', 'refactored', 'skipped'] as const;
export type Status = (typeof STATUSES)[number];
export const KINDS = ['behavior', 'fitness', 'client', 'unspecified'] as const;
export type Kind = (typeof KINDS)[number];

export interface FixtureItem {
  readonly featureId: string;
  readonly id: string;
  readonly description: string;
  readonly acId: string;
  readonly status: Status;
  readonly kind: Kind;
}

interface RawItem {
  id: string;
  description: string;
  ac_id: string;
  status: Status;
  kind?: string;
}

const FEATURES_DIR = join(FIXTURE_DIR, '.consort', 'features');

export function readFixtureItems(): FixtureItem[] {
  const items: FixtureItem[] = [];
  for (const featureId of readdirSync(FEATURES_DIR).sort()) {
    const file = join(FEATURES_DIR, featureId, 'test-list.json');
    if (!existsSync(file)) continue;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as RawItem[] | { items: RawItem[] };
    const raw = Array.isArray(parsed) ? parsed : parsed.items;
    for (const item of raw) {
      items.push({
        featureId,
        id: item.id,
        description: item.description,
        acId: item.ac_id,
        status: item.status,
        kind: (item.kind as Kind | undefined) ?? 'unspecified',
      });
    }
  }
  return items;
}

export function countByStatus(items: readonly FixtureItem[]): Record<Status, number> {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  for (const item of items) counts[item.status] += 1;
  return counts;
}
