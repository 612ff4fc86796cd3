/** Closing a command's project never hides the command's outcome, nor keeps the command waiting. */
import { describe, expect, it } from 'vitest';
import type { HostSession } from '../core/host-session';
import type { Io } from './io';
import { closeSession } from './open-project';

const recording = (): Io & { lines: string[] } => {
  const lines: string[] = [];
  return { lines, out: (text) => lines.push(`out: ${text}`), err: (text) => lines.push(`err: ${text}`) };
};
const closing = (close: () => Promise<void>) => ({ close }) as unknown as HostSession;

describe('closeSession', () => {
  it('says nothing when the project closes', async () => {
    const io = recording();
    await closeSession(
      closing(() => Promise.resolve()),
      io,
      1_000,
    );
    expect(io.lines).toEqual([]);
  });

  it('returns after the wait when the close hangs, and says so', async () => {
    const io = recording();
    const started = Date.now();
    await closeSession(
      closing(() => new Promise(() => undefined)),
      io,
      200,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(io.lines).toEqual(['err: baton: warning: closing the project took over 0.2 s; the command ends without waiting for it.']);
  });

  it('turns a failed close into one warning line', async () => {
    const io = recording();
    await closeSession(
      closing(() => Promise.reject(new Error('the branch server did not stop'))),
      io,
      1_000,
    );
    expect(io.lines).toEqual(['err: baton: warning: closing the project failed: the branch server did not stop']);
  });
});
