/** Every contract response is a Result: errors travel as data, never as thrown exceptions. */

/** Every error code a Baton host, command or channel answers with: one list, checked by the compiler. */
export const APP_ERROR_CODES = [
  'already-approved',
  'already-initialised',
  'amendment-open',
  'auth',
  'bundle-damaged',
  'busy',
  'cancelled',
  'confirmation-required',
  'conformance',
  'demo-failed',
  'disconnected',
  'exists',
  'export-failed',
  'failed',
  'forbidden-channel',
  'forbidden-sender',
  'has-children',
  'internal',
  'invalid',
  'invalid-artifact',
  'invalid-request',
  'invalid-settings',
  'ledger-broken',
  'ledger-error',
  'listen-failed',
  'missing-artifact',
  'missing-blob',
  'no-identity',
  'no-project',
  'no-reason',
  'no-settings',
  'not-a-git-repository',
  'not-a-project',
  'not-approved',
  'not-built',
  'not-drifted',
  'not-escalated',
  'not-allowed',
  'not-found',
  'not-locked',
  'not-pending',
  'not-verified',
  'prerequisite',
  'protected',
  'read-only',
  'recorded',
  'run-failed',
  'signature-invalid',
  'stale-artifact',
  'status-failed',
  'unavailable',
  'unproven',
  'unchanged',
  'unreachable',
  'unsafe-file',
  'unsupported',
  'withdrawn-unchanged',
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

export interface AppError {
  /** A stable machine-readable code, e.g. `not-found`, `invalid-request`. */
  readonly code: AppErrorCode;
  /** What happened, where, and what to do next — written for a person. */
  readonly message: string;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const err = (code: AppErrorCode, message: string): Result<never> => ({ ok: false, error: { code, message } });
