/**
 * Branch failures and progress as the renderer receives them. Whatever a provider or a library
 * put into a message, no password leaves main: every URL and `password=` pair in the text is
 * redacted on the way out (the service should already have done so; this is the second lock).
 */
import { redactUrl, type BranchProgress } from '../../shared/branches';
import type { AppError } from '../../shared/result';
import { BranchError } from '../branches/provider';

const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi;
const PASSWORD_PAIR = /\b(password|passwd|pwd|token|apikey|api_key)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s,;&]+)/gi;

/** Free text with every URL's password and every `password=…` value replaced by `***`. */
export function redactText(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => redactUrl(url)).replace(PASSWORD_PAIR, '$1$2***');
}

const isBranchError = (cause: unknown): cause is BranchError =>
  cause instanceof BranchError || (cause instanceof Error && cause.name === 'BranchError' && typeof (cause as { code?: unknown }).code === 'string');

/** A thrown failure as a Result error: a BranchError keeps its code and words; anything else says what failed. */
export function branchFailure(cause: unknown, what: string): AppError {
  if (isBranchError(cause)) return { code: cause.code, message: redactText(cause.message) };
  const detail = (cause as { message?: unknown } | null | undefined)?.message;
  const text = typeof detail === 'string' ? detail : String(cause);
  return { code: 'failed', message: redactText(`${what} failed: ${text}`) };
}

export function redactProgress(event: BranchProgress): BranchProgress {
  if (event.kind === 'branch.step') return { ...event, step: redactText(event.step) };
  if (event.kind === 'branch.retry') return { ...event, reason: redactText(event.reason) };
  return event;
}
