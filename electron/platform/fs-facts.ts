/** Small facts about the file system and processes that every writer and lock asks. */

/** The error's `code` (`ENOENT`, `EEXIST`, …), if it has one. */
export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;

export const isMissing = (error: unknown): boolean => errorCode(error) === 'ENOENT';

/** Whether a process with this id runs on this machine (EPERM: it does, as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}
