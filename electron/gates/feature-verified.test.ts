/**
 * The merged feature's verification as the gates read it: a failed `feature.verified` blocks the
 * deploy gate with what failed and what to do, until a later merge is verified again; a passed one
 * (or none: a feature merged before verification existed) blocks nothing. The whole build is in
 * engine/parallel-build.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, type RecordData } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';
import { standingFailure, verificationError } from './feature-verified';

const record = (seq: number, type: string, data: object, feature = 'F-1'): LedgerRecord => ({
  seq,
  at: '2026-01-01T00:00:00.000Z',
  type,
  actor: { kind: 'orchestrator', id: 'baton' },
  subject: { feature },
  data: data as Record<string, unknown>,
  blobs: [],
  prev: '0'.repeat(64),
  hash: String(seq).padStart(64, '0'),
});

const failed: Partial<RecordData<typeof RECORD_TYPES.featureVerified>> = {
  verdict: 'failed',
  commit: 'abcdef1234567890abcdef1234567890abcdef12',
  failing: [{ test: 'test/T2.test.js › T2 steps in the database', file: 'test/T2.test.js', stories: ['S-2'] }],
  stories: ['S-1', 'S-2'],
  lanes: [['S-1'], ['S-2']],
};
const verified = (seq: number, fields: Partial<RecordData<typeof RECORD_TYPES.featureVerified>>, feature = 'F-1') =>
  record(seq, RECORD_TYPES.featureVerified, sampleData(RECORD_TYPES.featureVerified, { ...fields, feature }), feature);
const merged = (seq: number) => record(seq, RECORD_TYPES.storyMerged, sampleData(RECORD_TYPES.storyMerged));
const deploy = { feature: 'F-1', gate: 'deploy' };

describe('the merged feature’s verification at the deploy gate', () => {
  it('a failure blocks the deploy gate, naming the test, its story, the stories beside it, and what to do', () => {
    const error = verificationError(deploy, [merged(1), verified(2, failed)]);
    expect(error?.code).toBe('not-verified');
    expect(error?.message).toBe(
      'The merged feature F-1 (baton/f-1 at abcdef123456) fails its whole suite on a fresh database with every migration applied in file order (record #2): ' +
        'test/T2.test.js › T2 steps in the database (story S-2) fails. Each story passed on its own branch, so S-1, S-2 were built apart (declared independent) but are not independent. ' +
        'Nothing after acceptance runs until the merged feature passes: no deploy, and the deploy gate cannot be approved. ' +
        'What to do: fix it on baton/f-1 (its worktree is /tmp/f-1) and commit, then run again: Baton verifies the new head. ' +
        `Declare the dependency too ("depends_on": ["S-1"] in S-2's story.json), then approve the spec and those stories' acceptance again, so they are built in one lane, one on top of the other, from now on.`,
    );
  });

  it('stories of one lane are not told to depend on each other: the order their migrations came in is what differs', () => {
    const error = verificationError(deploy, [verified(1, { ...failed, lanes: [['S-1', 'S-2']] })]);
    expect(error?.message).toContain('S-1, S-2 were built one on top of the other, each database of the build migrated commit by commit');
    expect(error?.message).not.toContain('depends_on');
  });

  it('runs that could not be trusted say so', () => {
    const error = verificationError(deploy, [verified(1, { ...failed, failing: [], stories: [], integrity: ['a locked file changed'] })]);
    expect(error?.message).toContain('(record #1): its runs could not be trusted (a locked file changed). Nothing after');
  });

  it('blocks nothing when it passed, when none was made, for another gate or feature, or once a story merged since', () => {
    expect(verificationError(deploy, [merged(1), verified(2, { verdict: 'passed' })])).toBeNull();
    expect(verificationError(deploy, [merged(1)])).toBeNull();
    expect(verificationError({ feature: 'F-1', gate: 'design' }, [verified(1, failed)])).toBeNull();
    expect(verificationError(deploy, [verified(1, failed, 'F-2')])).toBeNull();
    // A later passed verification of a new head clears the earlier failure.
    expect(verificationError(deploy, [verified(1, failed), merged(2), verified(3, { verdict: 'passed' })])).toBeNull();
    // A merge after the failure is verified again before the deploy; the old failure no longer stands.
    expect(standingFailure([verified(1, failed), merged(2)], 'F-1')).toBeNull();
    expect(standingFailure([merged(1), verified(2, failed)], 'F-1')?.seq).toBe(2);
  });
});
