/**
 * Runs fuzz cases through the real entry points in a worker thread (in-process, but stoppable): a
 * case that does not answer within its timeout is a hang, the thread is terminated and a fresh one
 * takes the next case; an exception that escapes (the thread's 'error' event) is a crash. The
 * judges below turn each outcome into null (fine) or one line saying what went wrong, and a suite
 * fails listing every input that did.
 */
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { jsonHazard } from '../../shared/json-safety';
import type { CliOutcome, ReportOutcome, WireOutcome } from './entry-points.fixture';
import { fuzzSeed, Rng } from './prng.fixture';

export type CallOutcome<T> =
  | { readonly kind: 'value'; readonly value: T; readonly ms: number }
  | { readonly kind: 'threw' | 'crashed'; readonly error: { name: string; message: string; stack: string }; readonly ms: number }
  | { readonly kind: 'hung'; readonly ms: number };

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string; stack: string } };

const WORKER = new URL('./fixtures/fuzz-worker.mjs', import.meta.url);

export class FuzzSandbox {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private waiting: ((reply: Reply | { crashed: Error }) => void) | null = null;
  private nextId = 0;
  private lost: Error | null = null;
  /** BATON_CONFIG_DIR and BATON_DATA_DIR of the worker: recent projects and branch data stay in here. */
  readonly home = mkdtempSync(join(tmpdir(), 'baton-fuzz-home-'));

  private start(): Promise<void> {
    const env = { ...process.env, BATON_CONFIG_DIR: join(this.home, 'config'), BATON_DATA_DIR: join(this.home, 'data'), GIT_CEILING_DIRECTORIES: tmpdir() };
    const worker = new Worker(WORKER, { env, resourceLimits: { maxOldGenerationSizeMb: 2048 }, stdout: true, stderr: true });
    // Whatever the code under test prints outside its Io is not the case's output: drained, not shown.
    worker.stdout.resume();
    worker.stderr.resume();
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    worker.on('message', (reply: Reply) => this.waiting?.(reply));
    worker.on('error', (error) => {
      // An exception between cases (a rejection nobody awaited) is charged to the next case.
      if (this.waiting) this.waiting({ crashed: error });
      else this.lost = error;
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      this.waiting?.({ crashed: new Error('the worker exited') });
    });
    return this.ready;
  }

  /** Calls `fn` of entry-points.fixture.ts in the worker; never throws. */
  async call<T>(fn: string, args: unknown[], timeoutMs: number): Promise<CallOutcome<T>> {
    const lost = this.lost;
    if (lost !== null) {
      this.lost = null;
      return { kind: 'crashed', error: { name: lost.name, message: `after the previous case: ${lost.message}`, stack: lost.stack ?? '' }, ms: 0 };
    }
    if (this.worker === null) await this.start();
    else await this.ready;
    const worker = this.worker!;
    const id = ++this.nextId;
    const started = performance.now();
    const answer = await new Promise<Reply | { crashed: Error } | 'timeout'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), timeoutMs);
      this.waiting = (reply) => {
        if ('id' in reply && reply.id !== id) return;
        clearTimeout(timer);
        resolve(reply);
      };
      worker.postMessage({ id, fn, args });
    });
    this.waiting = null;
    const ms = Math.round(performance.now() - started);
    if (answer === 'timeout' || 'crashed' in answer) {
      this.worker = null;
      await worker.terminate();
      if (answer === 'timeout') return { kind: 'hung', ms };
      return { kind: 'crashed', error: { name: answer.crashed.name, message: answer.crashed.message, stack: answer.crashed.stack ?? '' }, ms };
    }
    return answer.ok ? { kind: 'value', value: answer.value as T, ms } : { kind: 'threw', error: answer.error, ms };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
    rmSync(this.home, { recursive: true, force: true });
  }
}

/**
 * Cases run in lanes side by side (two on a two-core machine: vitest itself then runs one test file
 * at a time), each lane with its own worker and its own copy of the project. Every case draws its
 * randomness from its own index, so which lane ran it changes nothing.
 */
export const LANES = Math.max(1, Math.min(2, availableParallelism()));

export const inLanes = async <L>(cases: number, lanes: readonly L[], run: (lane: L, i: number) => Promise<void>): Promise<void> => {
  await Promise.all(
    lanes.map(async (lane, k) => {
      for (let i = k; i < cases; i += lanes.length) await run(lane, i);
    }),
  );
};

/** `root` and LANES - 1 copies of it beside it (in fresh temporary folders), one per lane. */
export const laneCopies = async (root: string): Promise<string[]> => {
  const copies = [root];
  for (let k = 1; k < LANES; k++) {
    const copy = await fs.mkdtemp(join(tmpdir(), 'baton-fuzz-lane-'));
    await fs.cp(root, copy, { recursive: true });
    copies.push(copy);
  }
  return copies;
};

/** One line for an outcome that is not a value: the error and the top of its stack. */
const failure = (outcome: Exclude<CallOutcome<unknown>, { kind: 'value' }>, timeoutMs: number): string => {
  if (outcome.kind === 'hung') return `did not return within ${timeoutMs} ms`;
  const top = outcome.error.stack.split('\n').find((line) => line.trim().startsWith('at ')) ?? '';
  return `${outcome.kind === 'threw' ? 'threw' : 'crashed the worker with'} ${outcome.error.name}: ${outcome.error.message.slice(0, 300)} ${top.trim()}`;
};

const STACK_LINE = /^\s+at .+[:(]\d+:\d+\)?$/m;
const CAUGHT_CRASH = /failed unexpectedly|an unexpected error stopped/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A CLI run with --json is fine when it returned 0 or 1, printed no stack trace, and printed one JSON
 * document that is either a report whose problems each name a file and say what is wrong, or
 * `{ok:false, error}` with a message — and never the `internal` error a caught crash becomes.
 */
export const judgeCli = (outcome: CallOutcome<CliOutcome>, timeoutMs: number): string | null => {
  if (outcome.kind !== 'value') return failure(outcome, timeoutMs);
  const { code, out, err } = outcome.value;
  if (STACK_LINE.test(err) || STACK_LINE.test(out)) return `printed a stack trace: ${err.slice(0, 300)}`;
  if (CAUGHT_CRASH.test(out) || CAUGHT_CRASH.test(err)) return `a crash, caught: ${(err || out).slice(0, 400)}`;
  if (code !== 0 && code !== 1) return `exit code ${code}: ${err.slice(0, 300)}`;
  let doc: unknown;
  try {
    doc = JSON.parse(out);
  } catch {
    return `--json output is not one JSON document: ${out.slice(0, 200)}`;
  }
  if (!isObject(doc)) return '--json output is not a JSON object';
  if ('error' in doc) {
    const error = doc['error'];
    if (!isObject(error) || typeof error['message'] !== 'string' || error['message'].trim() === '') return 'an error without a message';
    if (error['code'] === 'internal') return `an internal error: ${error['message']}`;
  }
  const problems = doc['problems'];
  if (Array.isArray(problems)) {
    for (const p of problems) {
      if (!isObject(p) || typeof p['file'] !== 'string' || p['file'] === '') return `a problem that names no file: ${JSON.stringify(p).slice(0, 200)}`;
      if (typeof p['message'] !== 'string' || p['message'].trim() === '') return `a problem without a message in ${p['file']}`;
    }
  }
  if (code === 1 && doc['ok'] !== false && !(Array.isArray(problems) && problems.length > 0) && !/drifted|"ok": false/.test(out)) {
    return 'exit code 1 without an error, a problem or drift in the output';
  }
  return null;
};

/** A report, or a ReportParseError saying it could not be read; a report must be hashable into the ledger. */
export const judgeReport = (outcome: CallOutcome<ReportOutcome>, timeoutMs: number): string | null => {
  if (outcome.kind !== 'value') return failure(outcome, timeoutMs);
  const result = outcome.value;
  if (!result.ok) {
    if (result.name !== 'ReportParseError') return `threw ${result.name}: ${result.message.slice(0, 300)}`;
    return /could not be read: .+/.test(result.message) ? null : `an unclear refusal: ${result.message.slice(0, 200)}`;
  }
  const hazard = jsonHazard(result.report);
  return hazard === null ? null : `a report the ledger cannot hash: ${hazard.reason} at ${hazard.path}`;
};

/** A frame is refused as malformed, or answered with a Result: ok, or refused by the contract in words. */
export const judgeWire = (outcome: CallOutcome<WireOutcome>, timeoutMs: number): string | null => {
  if (outcome.kind !== 'value') return failure(outcome, timeoutMs);
  const answer = outcome.value;
  if ('refused' in answer) return null;
  const result = answer.result;
  if (!isObject(result) || typeof result['ok'] !== 'boolean') return 'dispatch answered with something that is not a Result';
  if (result['ok'] === true) return null;
  const error = result['error'];
  if (!isObject(error) || typeof error['message'] !== 'string' || error['message'] === '') return 'a refusal without a message';
  if (error['code'] !== 'invalid-request' && error['code'] !== 'forbidden-channel') return `refused with ${String(error['code'])}: ${error['message']}`;
  return null;
};

/** Counts, timing and every failed input of one suite; printed at the end, asserted empty. */
export class FuzzLog {
  readonly seed = fuzzSeed();
  readonly failures: string[] = [];
  cases = 0;
  runs = 0;
  private readonly started = performance.now();

  constructor(readonly suite: string) {}

  /** The randomness of case `i` (or of another named stream): the same for a seed, whatever ran before. */
  rng(stream: string | number): Rng {
    return new Rng(this.seed, `${this.suite}/${stream}`);
  }

  private readonly slow: { input: string; ms: number }[] = [];

  note(input: string, problem: string | null, ms = 0): void {
    this.runs++;
    if (problem !== null) this.failures.push(`${input}: ${problem}`);
    this.failures.sort();
    this.slow.push({ input, ms });
    this.slow.sort((a, b) => b.ms - a.ms).splice(3);
  }

  /** With BATON_FUZZ_VERBOSE=1: each distinct answer (an error or a problem), counted, for the summary. */
  private readonly answers = new Map<string, number>();

  answer(text: string): void {
    if (process.env['BATON_FUZZ_VERBOSE'] !== '1') return;
    const key = text.replace(/\/tmp\/[^\s:;,)]+/g, '<tmp>').slice(0, 160);
    this.answers.set(key, (this.answers.get(key) ?? 0) + 1);
  }

  summary(): string {
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    const slowest = this.slow.map((s) => `${s.ms} ms ${s.input}`).join('; ');
    const answers = [...this.answers].sort((a, b) => b[1] - a[1]).map(([text, n]) => `\n  ${n}× ${text}`);
    return `fuzz ${this.suite}: ${this.cases} cases, ${this.runs} runs, ${this.failures.length} failed, seed ${this.seed} (BATON_FUZZ_SEED), ${seconds} s; slowest: ${slowest}${answers.join('')}`;
  }
}
