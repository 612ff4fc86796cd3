/**
 * The acceptance wait on a real project folder and ledger: a feature's acceptance is decided per
 * story, so one story's approval is not the feature's — the run goes on only when every story of
 * the feature is approved, and a rejected story sends the build back with its note.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { Ledger } from '../ledger';
import { makeTempDir, minimalFeature, removeDir, writeTree } from '../project/temp-project.fixture';
import type { CycleDeps } from './cycle-deps';
import { waitForGate } from './run-resume';

let root: string;
let ledger: Ledger;
const SHA = 'a'.repeat(64);

const decide = (story: string, type: string, extra: Record<string, unknown> = {}) =>
  ledger.append({
    type,
    actor: { kind: 'person', id: 'Ada <ada@example.com>' },
    subject: { feature: 'F-1', story, gate: 'acceptance' },
    data: { gate: 'acceptance', approver: 'Ada <ada@example.com>', artifacts: { 'story.json': { sha256: SHA, algorithm: 'jcs-sha256' } }, ...extra },
  });

/** Waits at most `ms` for the gate; null when it is still waiting then. */
async function waited(ms: number) {
  const controller = new AbortController();
  const deps = { root, emit: () => undefined } as unknown as CycleDeps;
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await waitForGate(ledger, { feature: 'F-1', gate: 'acceptance' }, 20, controller.signal, deps);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  root = await makeTempDir('baton-acceptance-');
  await writeTree(root, {
    ...minimalFeature('.baton'),
    '.baton/features/F-1/stories/S-2/story.json': { id: 'S-2', title: 'Another story', as_a: 'user', i_want: 'x', so_that: 'y' },
  });
  ledger = Ledger.forArtifactRoot(join(root, '.baton'));
});

afterAll(() => removeDir(root));

describe('waitForGate at acceptance', () => {
  it('keeps waiting while a story is undecided, and goes on once every story is approved', async () => {
    await decide('S-1', RECORD_TYPES.gateApproved);
    expect(await waited(200)).toBeNull();
    await decide('S-2', RECORD_TYPES.gateApproved);
    expect(await waited(2000)).toEqual({ decision: 'approved', reason: null });
  });

  it('sends the build back with the note of a rejected story', async () => {
    await decide('S-2', RECORD_TYPES.gateRejected, { reason: 'The delivery note is missing.', note: 'The delivery note is missing.' });
    expect((await waited(2000))?.decision).toBe('rejected');
  });
});
