/**
 * The real entry points the fuzz cases go through, as the fuzz worker (fixtures/fuzz-worker.mjs)
 * calls them: the CLI's `main` (in-process, output captured), the report parser, and the browser
 * host's frame handling (clientFrameSchema, then dispatch with the contract's request schemas).
 * Each returns plain data the test then judges; a throw here is a crash the suite reports.
 */
import { CHANNELS } from '../../shared/contract';
import { ok } from '../../shared/result';
import { clientFrameSchema } from '../../shared/wire';
import { main } from '../cli/main';
import { dispatch } from '../core/dispatch';
import type { Handlers } from '../core/handlers';
import { parseReport } from '../runner/parse-report';
import type { ReportFormat } from '../runner/report';

export interface CliOutcome {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `baton <argv>` in-process, as cli.test.ts runs it. */
export const cli = async (argv: string[]): Promise<CliOutcome> => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

export type ReportOutcome = { readonly ok: true; readonly report: unknown } | { readonly ok: false; readonly name: string; readonly message: string };

export const report = (text: string, format: ReportFormat): ReportOutcome => {
  try {
    return { ok: true, report: parseReport(text, format) };
  } catch (error) {
    // Only a ReportParseError is an answer; the test fails on any other name.
    return { ok: false, name: error instanceof Error ? error.name : typeof error, message: error instanceof Error ? error.message : String(error) };
  }
};

/** Handlers that answer with what they were given: the frame's path up to the handler, no side effects. */
const echo = Object.fromEntries(CHANNELS.map((channel) => [channel, async (request: unknown) => ok({ channel, request })])) as unknown as Handlers;

export type WireOutcome = { readonly refused: string } | { readonly result: unknown; readonly sentChars: number };

/** What the browser host does with one WebSocket message (electron/host/server.ts). */
export const wire = async (data: string): Promise<WireOutcome> => {
  let frame;
  try {
    frame = clientFrameSchema.parse(JSON.parse(data));
  } catch {
    return { refused: 'malformed frame' };
  }
  const result = await dispatch(echo, frame.channel, frame.request);
  // The host sends the answer as JSON: that must work for whatever the schema let through.
  return { result, sentChars: JSON.stringify({ kind: 'result', id: frame.id, result }).length };
};

/** For the harness's own test (harness.test.ts): a case that hangs, throws, or leaves a rejection nobody awaits. */
export const probe = async (kind: 'ok' | 'hang' | 'throw' | 'reject'): Promise<string> => {
  if (kind === 'hang') {
    const end = Date.now() + 3_600_000;
    while (Date.now() < end);
  }
  if (kind === 'throw') throw new RangeError('probe threw');
  if (kind === 'reject') void Promise.reject(new Error('probe left a rejection'));
  return kind;
};
