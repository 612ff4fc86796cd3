/**
 * What the board should show, computed from the fixture's own test-list.json files so the
 * specs follow the fixture when it changes. Consort writes a test list either as
 * `{feature_id, items: [...]}` or as a bare array.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_DIR } from './paths';

export const STATUSES = ['pending', 'red', 'green', 'refactored', 'escalated', 'skipped'] as const;
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

export interface FixtureAc {
  readonly featureId: string;
  readonly storyId: string;
  readonly id: string;
  readonly title: string;
  readonly given: string;
  readonly when: string;
  /** Consort allows a list of lines; the reader joins them with newlines. */
  readonly then: string;
}

const text = (value: string | string[]): string => (Array.isArray(value) ? value.join('\n') : value);

/** The AC files of every story: `features/<F>/stories/<S>/acs/<AC>.json`. */
export function readFixtureAcs(): FixtureAc[] {
  const acs: FixtureAc[] = [];
  for (const featureId of readdirSync(FEATURES_DIR).sort()) {
    const storiesDir = join(FEATURES_DIR, featureId, 'stories');
    if (!existsSync(storiesDir)) continue;
    for (const storyId of readdirSync(storiesDir).sort()) {
      const acsDir = join(storiesDir, storyId, 'acs');
      if (!existsSync(acsDir)) continue;
      for (const file of readdirSync(acsDir).sort()) {
        const raw = JSON.parse(readFileSync(join(acsDir, file), 'utf8')) as Record<string, string | string[]>;
        acs.push({
          featureId,
          storyId,
          id: file.replace(/\.json$/, ''),
          title: text(raw.title ?? ''),
          given: text(raw.given ?? ''),
          when: text(raw.when ?? ''),
          then: text(raw.then ?? ''),
        });
      }
    }
  }
  return acs;
}

/** The story whose ACs include the item's AC. */
export function storyOf(item: FixtureItem, acs: readonly FixtureAc[]): string | null {
  return acs.find((ac) => ac.featureId === item.featureId && ac.id === item.acId)?.storyId ?? null;
}
