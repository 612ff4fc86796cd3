/** Every contract response is a Result: errors travel as data, never as thrown exceptions. */
export interface AppError {
  /** A stable machine-readable code, e.g. `not-found`, `invalid-request`. */
  readonly code: string;
  /** What happened, where, and what to do next — written for a person. */
  readonly message: string;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const err = (code: string, message: string): Result<never> => ({ ok: false, error: { code, message } });
