/**
 * Reading what the code under test could have replaced: the runner's report and the locked files.
 * Either may have been made a FIFO (a plain read would wait for a writer forever, past the run's
 * timeout), a symlink to a file outside the run (/etc/passwd, read and kept as the report), a
 * device, or something enormous. Reads go through electron/platform/safe-read.ts and are bounded
 * in time as well as size.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { formatSize, openRegularFile, readRegularFile, SafeReadError } from '../platform/safe-read';

/** A test report larger than this is not read: no real suite's JUnit or JSON report comes near it. */
export const MAX_REPORT_BYTES = 32 * 1024 * 1024;
/** Reading the report gets what is left of the run's timeout, but never less than this. */
export const REPORT_READ_FLOOR_MS = 1000;

export type ReportRead =
  | { readonly state: 'ok'; readonly text: string }
  | { readonly state: 'missing' }
  /** `message` is the verdict's error; `planted` says it was made so by the code under test (an integrity problem). */
  | { readonly state: 'refused'; readonly message: string; readonly planted: string | null };

const refusal = (reportPath: string, error: unknown): ReportRead => {
  if (!(error instanceof SafeReadError)) {
    const why = error instanceof Error ? error.message : String(error);
    return { state: 'refused', message: `The report at ${reportPath} cannot be read (${why}): the run has no verdict. Run it again.`, planted: null };
  }
  if (error.reason === 'missing') return { state: 'missing' };
  if (error.reason === 'too-large' && error.facts.size !== undefined && error.facts.limit !== undefined) {
    const { size, limit } = error.facts;
    return {
      state: 'refused',
      message:
        `The report at ${reportPath} is ${formatSize(size)} (${size} bytes), over the ${formatSize(limit)} limit for a test report: it was not read, so the run has no verdict. ` +
        'Make the runner write a smaller report (no captured output in it, fewer tests per run).',
      planted: null,
    };
  }
  if (error.reason === 'unreadable')
    return { state: 'refused', message: `The report at ${reportPath} ${error.detail}: the run has no verdict.`, planted: null };
  // A symlink, a FIFO, a device, a path out of the run folder: no runner writes its report that way.
  return {
    state: 'refused',
    message: `The report at ${reportPath} ${error.detail}. Baton reads only a regular file the runner wrote inside the run folder: the run has no verdict.`,
    planted: `the report at ${reportPath} ${error.detail}`,
  };
};

/** The report at `reportPath` (relative to the run folder `dir`), given at most `withinMs` to read. */
export async function readRunReport(dir: string, reportPath: string, withinMs: number): Promise<ReportRead> {
  const read = readRegularFile(join(dir, reportPath), { maxBytes: MAX_REPORT_BYTES, root: dir }).then(
    (bytes): ReportRead => ({ state: 'ok', text: bytes.toString('utf8') }),
    (error: unknown) => refusal(reportPath, error),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ReportRead>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          state: 'refused',
          message: `Reading the report at ${reportPath} took longer than the run's timeout left (${withinMs} ms): it was not read, so the run has no verdict.`,
          planted: `reading the report at ${reportPath} did not finish within the run's timeout`,
        }),
      withinMs,
    );
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The text a read gave, for comparing two reads of the report; null when it gave none. */
export const reportTextOf = (read: ReportRead): string | null => (read.state === 'ok' ? read.text : null);

/**
 * The SHA-256 of a file in the run folder, streamed (any size), following a symlink only while it
 * stays inside the folder; null when nothing is there. A file that cannot be hashed that way (a
 * FIFO, a link out) hashes to a note saying so, which never equals a real hash.
 */
export async function hashRunFile(dir: string, path: string): Promise<string | null> {
  let opened;
  try {
    opened = await openRegularFile(join(dir, path), { maxBytes: Number.MAX_SAFE_INTEGER, root: dir, followInside: true });
  } catch (error) {
    if (error instanceof SafeReadError && error.reason === 'missing') return null;
    return `(not hashed: ${error instanceof SafeReadError ? error.reason : 'unreadable'})`;
  }
  const hash = createHash('sha256');
  try {
    for await (const chunk of opened.handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
  } finally {
    await opened.handle.close();
  }
  return hash.digest('hex');
}
