/**
 * "Looks like test detection": code that behaves differently under the test runner is how an agent
 * makes a test pass without doing the work (issue 30). The JavaScript and TypeScript a Driver adds
 * or changes is scanned (tell-scan.ts) and only the tells it brought in count: a tell the file
 * already had, or one moved within it, is not the Driver's. At GREEN and REFACTOR a tell a person
 * has not allowed for the item is a violation (engine/cycle-tells.ts). Other languages are not
 * scanned. Pure.
 */
import { isScannedSource } from './tell-names';
import { normalised, scanTells, type Tell } from './tell-scan';

export { isScannedSource } from './tell-names';
export { tellId, type Tell } from './tell-scan';

/**
 * The tells in `after` that `before` did not have, compared by reason and line text (each earlier
 * tell used up once), so moving or renaming code brings no new tell but a second copy does.
 */
export function tellsIn(file: string, before: string | null, after: string): Tell[] {
  if (!isScannedSource(file)) return [];
  const key = (t: Tell) => `${t.why}\n${normalised(t.text)}`;
  const old = new Map<string, number>();
  for (const t of before === null ? [] : scanTells(file, before)) old.set(key(t), (old.get(key(t)) ?? 0) + 1);
  return scanTells(file, after).filter((t) => {
    const left = old.get(key(t)) ?? 0;
    if (left > 0) old.set(key(t), left - 1);
    return left === 0;
  });
}
