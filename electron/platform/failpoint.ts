/**
 * Crash points for the tests that kill Baton mid-operation (a `kill -9` at a chosen step, every
 * time): when BATON_FAILPOINT names this point, the process kills itself with SIGKILL, as a power
 * cut or the OOM killer would, leaving every file and record as they are at that instant. Unset (as
 * it always is outside those tests) it does nothing.
 */
export function failpoint(name: string): void {
  if (process.env.BATON_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}
