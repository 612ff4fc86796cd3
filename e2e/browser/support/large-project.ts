/**
 * A large project for the board's scale: the consort-shop fixture (14 items) copied into a scratch
 * folder, plus `count` more items in features of their own, in every status and kind, a few of them
 * naming an AC id far longer than a card is wide. Consort statuses come from the test list, so each
 * column gets its share (a Baton project's come from its ledger). Deterministic: the same count
 * makes the same project, so a spec (and bench/board.mjs) can name the items it expects.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TEST_STATUSES, type TestStatus } from '../../../shared/model';
import { FIXTURE_DIR } from './paths';

/** The items of consort-shop itself (EXPECTED.md). */
export const FIXTURE_ITEMS = 14;
export const LARGE_FEATURES = ['F-bulk-1', 'F-bulk-2', 'F-bulk-3', 'F-bulk-4'] as const;

/** One item in every LONG_AC_EVERY names this AC id: long, with no place to break it. */
export const LONG_AC_ID = 'AC-PaymentProviderDeclinesAnExpiredCardAndOffersARetryWithinTheSameSession';
const LONG_AC_EVERY = 97;

const KINDS = ['behavior', 'fitness', 'client', null] as const;
/** How statuses repeat along a list: most items pending, some in every other column. */
const STATUS_CYCLE: readonly TestStatus[] = ['pending', 'pending', 'pending', 'red', 'green', 'green', 'refactored', 'escalated', 'skipped', 'pending'];

export interface LargeItem {
  readonly featureId: string;
  readonly id: string;
  readonly description: string;
  readonly acId: string;
  readonly status: TestStatus;
  readonly kind: (typeof KINDS)[number];
}

/** The generated items, in board order (feature by feature, each list in file order). */
export function largeItems(count: number): LargeItem[] {
  const perFeature = Math.ceil(count / LARGE_FEATURES.length);
  const items: LargeItem[] = [];
  for (let n = 0; n < count; n++) {
    const featureId = LARGE_FEATURES[Math.floor(n / perFeature)]!;
    const index = (n % perFeature) + 1;
    items.push({
      featureId,
      id: `T${index}`,
      description: `item ${index} of ${featureId}: ${n % 3 === 0 ? 'a card declined by the bank leaves the order unpaid and tells the shopper why' : 'a valid card pays'}`,
      acId: n % LONG_AC_EVERY === LONG_AC_EVERY - 1 ? LONG_AC_ID : 'AC-1',
      status: STATUS_CYCLE[n % STATUS_CYCLE.length]!,
      kind: KINDS[n % KINDS.length]!,
    });
  }
  return items;
}

/** How many of `items` each status has. */
export const countsOf = (items: readonly LargeItem[]): Record<TestStatus, number> =>
  Object.fromEntries(TEST_STATUSES.map((s) => [s, items.filter((i) => i.status === s).length])) as Record<TestStatus, number>;

const write = (file: string, value: unknown) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 1) + '\n');
};

/** Makes the project in `scratch`/shop and returns its folder and the generated items. */
export function makeLargeProject(scratch: string, count: number): { dir: string; items: LargeItem[] } {
  const dir = join(scratch, 'shop');
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  const items = largeItems(count);
  LARGE_FEATURES.forEach((feature, n) => {
    const root = join(dir, '.consort', 'features', feature);
    write(join(root, 'feature-spec.json'), { id: feature, title: `Bulk ${n + 1}`, summary: 'Many small checks of the checkout.' });
    write(join(root, 'stories', 'S-1', 'story.json'), {
      id: 'S-1',
      title: 'Pay by card',
      as_a: 'shopper',
      i_want: 'to pay by card',
      so_that: 'I get my order',
    });
    write(join(root, 'stories', 'S-1', 'acs', 'AC-1.json'), {
      id: 'AC-1',
      title: 'Card accepted',
      given: 'a basket',
      when: 'the shopper pays',
      then: 'the order is paid',
    });
    write(
      join(root, 'test-list.json'),
      items
        .filter((i) => i.featureId === feature)
        .map((i) => ({ id: i.id, description: i.description, ac_id: i.acId, status: i.status, ...(i.kind ? { kind: i.kind } : {}) })),
    );
  });
  return { dir, items };
}
