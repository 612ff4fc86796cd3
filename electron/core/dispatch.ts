/**
 * The single entry point both transports call: refuses channels not in the contract, validates the
 * payload with the channel's zod schema, and turns any unexpected throw into an error Result.
 */
import { channels, isChannel, type Channel } from '../../shared/contract';
import { err, type Result } from '../../shared/result';
import type { Handlers } from './handlers';

export async function dispatch(handlers: Handlers, channel: unknown, payload: unknown): Promise<Result<unknown>> {
  if (!isChannel(channel)) {
    return err('forbidden-channel', `"${safeString(channel).slice(0, 64)}" is not a channel of the Baton contract.`);
  }
  const parsed = channels[channel].request.safeParse(payload ?? {});
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'request'}: ${issue.message}`).join('; ');
    return err('invalid-request', `Invalid request for ${channel}: ${detail}.`);
  }
  try {
    const handler = handlers[channel] as (request: unknown) => Promise<Result<unknown>>;
    return await handler(parsed.data);
  } catch (cause) {
    // `throw null` and `Promise.reject()` happen too: read .message only from something that has one.
    const detail = (cause as { message?: unknown } | null | undefined)?.message;
    return err('internal', `${channel as Channel} failed unexpectedly: ${typeof detail === 'string' ? detail : safeString(cause)}`);
  }
}

/** String() that never throws: a prototype-less object has no toString to call. */
function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
