/**
 * earlierLock on a real ledger: the tests a strengthening round kept bind a later item like an
 * earlier lock, with the content the round recorded; a round that kept nothing, and a refused file,
 * bind nothing.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { Ledger } from '../ledger';
import type { CycleDeps } from './cycle-deps';
import { earlierLock } from './feature-lock';
import { CycleRecords } from './records';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const file = (path: string, content: string) => ({ path, sha256: sha(content), bytes: Buffer.byteLength(content) });
const LOCKED = "test('T1 adds', () => {});\n";
const KEPT = "test('T1 adds values', () => {});\n";
const REFUSED = "test('reads the source', () => {});\n";

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

async function ledgerWithT1(round: { kept: boolean }): Promise<Ledger> {
  dir = await mkdtemp(join(tmpdir(), 'baton-feature-lock-'));
  const ledger = Ledger.forArtifactRoot(dir);
  const records = new CycleRecords(ledger, { feature: 'F-1', story: 'S-1', item: 'T1', cycle: 'F-1/T1' });
  await records.append(
    RECORD_TYPES.cycleLocked,
    'lock',
    {
      files: [{ ...file('test/T1.test.js', LOCKED), mode: 0o644 }],
      testCommand: 'node --test',
      testCommandSha256: sha('node --test'),
      cases: [],
      red: 'r',
      tree: null,
    },
    [{ name: 'locked/test/T1.test.js', content: LOCKED }],
  );
  const kept = file('test/T1-values.test.js', KEPT);
  const refused = file('test/T1-source.test.js', REFUSED);
  await records.append(
    RECORD_TYPES.cycleMutated,
    'strengthened:c1',
    {
      commit: 'c1',
      tree: 't1',
      files: ['src/calc.js'],
      found: 2,
      tested: 2,
      killed: 2,
      timedOut: 0,
      survived: [],
      errors: [],
      score: 1,
      minScore: 0.6,
      ms: 10,
      strengthened: {
        of: sha('first record'),
        files: [kept, refused],
        passedOnGreen: true,
        failing: [],
        killed: ['m1'],
        kept: round.kept,
        why: 'refused test/T1-source.test.js:4 (reads source code at run time)',
        turnMs: 5,
        violations: [],
        tells: [{ file: 'test/T1-source.test.js', line: 4, why: 'reads source code at run time', id: sha('tell') }],
      },
    },
    [
      { name: 'strengthened/test/T1-values.test.js', content: KEPT },
      { name: 'strengthened/test/T1-source.test.js', content: REFUSED },
    ],
  );
  return ledger;
}

const deps = (ledger: Ledger) => ({ ledger, feature: 'F-1' }) as unknown as CycleDeps;

describe('earlierLock', () => {
  it("holds the tests a strengthening round kept, with the round's content, beside the earlier lock (never the refused file)", async () => {
    const ledger = await ledgerWithT1({ kept: true });
    const lock = await earlierLock(deps(ledger), 'F-1/T2', 'S-1');
    expect(lock!.set.files.map((f) => f.path).sort()).toEqual(['test/T1-values.test.js', 'test/T1.test.js']);
    expect(lock!.snapshot.get('test/T1-values.test.js')).toMatchObject({ sha256: sha(KEPT), mode: 0o644 });
    expect(lock!.snapshot.get('test/T1-values.test.js')!.content!.toString('utf8')).toBe(KEPT);
  });

  it('holds nothing of a round that kept nothing', async () => {
    const ledger = await ledgerWithT1({ kept: false });
    const lock = await earlierLock(deps(ledger), 'F-1/T2', 'S-1');
    expect(lock!.set.files.map((f) => f.path)).toEqual(['test/T1.test.js']);
  });
});
