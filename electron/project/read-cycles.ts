/**
 * Consort's per-AC cycle records: `cycles/<F>/<S>/<AC>/cycle-NNN.json` with their siblings
 * `review-verdict.json` (the Navigator's `{refactor, notes}`), `review.json` (`reviewed_at`,
 * `refactored_at`) and `green-failure.json` (`fixAttempts`, while a GREEN is being repaired).
 * Field names differ between Consort versions (`test_id` or `test_ids`, `cycle` or `cycle_id`);
 * whatever a file does not say stays null.
 */
import path from 'node:path';
import type { CycleRun } from '../../shared/model';
import { isObject, naturalCompare, pick, pickString, pickText, type JsonObject } from './fields';
import { listDir, readJson, realDir, relativeFile, report, type DirEntry, type ReadContext } from './read-context';

const CYCLE_FILE = /^cycle-(\d+)\.json$/;

const objectIn = async (ctx: ReadContext, dir: DirEntry[], name: string): Promise<JsonObject | null> => {
  const entry = dir.find((e) => e.isFile && e.name === name);
  if (!entry) return null;
  const read = await readJson(ctx, entry.path);
  return read.state === 'ok' && isObject(read.value) ? read.value : null;
};

const count = (obj: JsonObject | null, ...keys: string[]): number | null => {
  const value = obj ? pick(obj, ...keys) : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
};

const flag = (obj: JsonObject | null, key: string): boolean | null => {
  const value = obj?.[key];
  return typeof value === 'boolean' ? value : null;
};

/** The review in words: Consort's review-verdict.json `{refactor, notes}` (or an explicit `verdict`). */
const reviewOf = (verdict: JsonObject | null, review: JsonObject | null): string | null => {
  const notes = verdict ? pickText(verdict, 'notes', 'note') : undefined;
  const refactor = flag(verdict, 'refactor') ?? flag(review, 'refactor_requested');
  const said = verdict ? pickString(verdict, 'verdict', 'decision') : undefined;
  if (refactor === true) return `refactor requested${notes ? `: ${notes}` : ''}`;
  if (refactor === false) return `accepted, no refactor${notes ? `: ${notes}` : ''}`;
  if (said) return notes ? `${said}: ${notes}` : said;
  return null;
};

const itemsOf = (cycle: JsonObject): string[] => {
  const listed = pick(cycle, 'test_ids', 'testIds', 'tests');
  const ids = Array.isArray(listed) ? listed.filter((id): id is string => typeof id === 'string') : [];
  const head = pickString(cycle, 'test_id', 'testId');
  return [...new Set([...(head ? [head] : []), ...ids])];
};

const outcomeOf = (cycle: JsonObject, greenAt: string | null, refactoredAt: string | null, redAt: string | null): string | null =>
  pickString(cycle, 'outcome', 'status') ?? (refactoredAt ? 'refactored' : greenAt ? 'green' : redAt ? 'red' : null);

/** The cycles of one AC folder, with the folder's review attached to its latest cycle. */
const readAcFolder = async (ctx: ReadContext, entries: DirEntry[], story: string | null, ac: string | null): Promise<CycleRun[]> => {
  const files = entries.filter((e) => e.isFile && CYCLE_FILE.test(e.name)).sort((a, b) => naturalCompare(a.name, b.name));
  if (files.length === 0) return [];
  const [verdict = null, review = null, failure = null] = await Promise.all(
    ['review-verdict.json', 'review.json', 'green-failure.json'].map((name) => objectIn(ctx, entries, name)),
  );
  const runs: CycleRun[] = [];
  for (const file of files) {
    const read = await readJson(ctx, file.path);
    if (read.state !== 'ok') continue;
    if (!isObject(read.value)) {
      report(ctx, file.path, 'expected a cycle record (an object with test_id, red_at, green_at), found something else; left out');
      continue;
    }
    const cycle = read.value;
    const at = (...keys: string[]): string | null => pickString(cycle, ...keys) ?? null;
    const redAt = at('red_at', 'redAt');
    const greenAt = at('green_at', 'greenAt');
    const refactoredAt = at('refactored_at', 'refactoredAt');
    const number = Number(CYCLE_FILE.exec(file.name)![1]);
    runs.push({
      id: pickString(cycle, 'cycle_id', 'cycleId') ?? `cycle-${String(number).padStart(3, '0')}`,
      source: 'consort',
      items: itemsOf(cycle),
      story: pickString(cycle, 'story_id', 'storyId') ?? story,
      ac: pickString(cycle, 'ac_id', 'acId') ?? ac,
      redAt,
      greenAt,
      refactoredAt,
      attempts: count(cycle, 'attempts', 'green_attempts'),
      counts: null,
      verdict: pickString(cycle, 'navigator_verdict', 'navigatorVerdict', 'verdict') ?? null,
      review: null,
      outcome: outcomeOf(cycle, greenAt, refactoredAt, redAt),
      file: relativeFile(ctx, file.path),
      record: null,
    });
  }
  // The folder's review and an open repair belong to its latest cycle.
  const last = runs.at(-1);
  if (last) {
    const fixes = count(failure, 'fixAttempts', 'fix_attempts');
    runs[runs.length - 1] = {
      ...last,
      review: reviewOf(verdict, review),
      refactoredAt: last.refactoredAt ?? (review ? (pickString(review, 'refactored_at') ?? null) : null),
      attempts: last.attempts ?? (fixes !== null ? fixes + 1 : null),
    };
  }
  return runs;
};

/**
 * Every cycle under `cycles/<F>/`: `<S>/<AC>/cycle-NNN.json` as Consort writes them, or cycle files
 * at any other depth (story and AC then come from the files alone). Each real folder is walked once,
 * so a symlink pointing back up the tree cannot loop.
 */
export const readCycles = async (ctx: ReadContext, featureCycles: string): Promise<CycleRun[]> => {
  const visited = new Set<string>();
  const walk = async (dir: string, trail: readonly string[]): Promise<CycleRun[]> => {
    const real = await realDir(dir);
    if (real === null || visited.has(real)) return [];
    visited.add(real);
    const entries = await listDir(ctx, dir);
    const here = await readAcFolder(ctx, entries, trail[0] ?? null, trail[1] ?? null);
    const folders = entries.filter((e) => e.isDirectory).sort((a, b) => naturalCompare(a.name, b.name));
    const below = await Promise.all(folders.map((f) => walk(f.path, [...trail, f.name])));
    return [...here, ...below.flat()];
  };
  return walk(featureCycles, []);
};

export const cyclesDir = (artifactRoot: string, folder: string): string => path.join(artifactRoot, 'cycles', folder);
