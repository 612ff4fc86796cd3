/**
 * `test-list.json`: the ordered tests of a feature. Kept in file order, because the order is
 * the plan. A bad item is reported and left out; the others still load.
 */
import { TEST_KINDS, TEST_STATUSES, type TestItem, type TestKind, type TestStatus } from '../../shared/model';
import { isObject, matchToken, pick, pickString, pickText, shapeOf } from './fields';
import { checkShape, readJson, report, type ReadContext } from './read-context';

const itemsOf = (value: unknown): unknown[] | null => {
  if (Array.isArray(value)) return value;
  if (isObject(value)) {
    const items = pick(value, 'items', 'tests');
    if (Array.isArray(items)) return items;
  }
  return null;
};

const allowed = (values: readonly string[]): string => values.join(', ');

export const readTestList = async (ctx: ReadContext, file: string, storyOfAc: ReadonlyMap<string, string>): Promise<TestItem[]> => {
  const read = await readJson(ctx, file);
  if (read.state !== 'ok') return [];
  const raw = itemsOf(read.value);
  if (raw === null) {
    report(ctx, file, `expected an array of test items or an object with an "items" array, found ${shapeOf(read.value)}`);
    return [];
  }
  const items: TestItem[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    const where = `item ${index + 1}`;
    if (!isObject(entry)) {
      report(ctx, file, `${where} should be an object, found ${shapeOf(entry)}; left out`);
      return;
    }
    const id = pickString(entry, 'id', 'test_id', 'testId');
    if (id === undefined || id.trim() === '') {
      report(ctx, file, `${where} has no "id"; left out. Give every test item a unique id such as "T${index + 1}"`);
      return;
    }
    const label = `item ${id} (${where})`;
    if (seen.has(id)) {
      report(ctx, file, `${label} repeats an id used earlier in the list; left out. Test ids must be unique`);
      return;
    }
    // A missing status means nothing has run yet; it never claims more progress than "pending".
    const rawStatus = pickString(entry, 'status') ?? 'pending';
    const status = matchToken<TestStatus>(rawStatus, TEST_STATUSES);
    if (status === undefined) {
      report(ctx, file, `${label} has status "${rawStatus}", which is not one of: ${allowed(TEST_STATUSES)}; left out`);
      return;
    }
    const rawKind = pickString(entry, 'kind');
    const kind = rawKind === undefined || rawKind.trim() === '' ? null : matchToken<TestKind>(rawKind, TEST_KINDS);
    if (kind === undefined) {
      report(ctx, file, `${label} has kind "${rawKind}", which is not one of: ${allowed(TEST_KINDS)}; left out`);
      return;
    }
    seen.add(id);
    const acId = pickString(entry, 'ac_id', 'acId', 'ac') ?? '';
    items.push({
      id,
      description: pickText(entry, 'description', 'title', 'name') ?? '',
      acId,
      storyId: storyOfAc.get(acId) ?? null,
      status,
      kind,
      scenarioFile: pickString(entry, 'scenario_file', 'scenarioFile') ?? null,
      invariantId: pickString(entry, 'invariant_id', 'invariantId') ?? null,
    });
  });
  checkShape(ctx, file, 'test-list.json', read.value);
  return items;
};
