/**
 * Keeps a chatty run from flooding the transport: output chunks that follow each other merge into
 * one and a long one keeps only its two ends (the ledger blob keeps the whole output), and the
 * project re-read that moves the board's cards runs at most once per interval, never dropped.
 */
import type { RunFeedEvent } from '../../shared/run';

type Output = Extract<RunFeedEvent, { kind: 'turn.output' | 'runner.output' }>;

const isOutput = (event: RunFeedEvent): event is Output => event.kind === 'turn.output' || event.kind === 'runner.output';

/** The first quarter and the last three quarters of `max` characters, with a line saying what was left out. */
export function capChunk(chunk: string, max: number): string {
  if (chunk.length <= max) return chunk;
  const head = Math.floor(max / 4);
  const tail = max - head;
  const left = chunk.length - head - tail;
  return `${chunk.slice(0, head)}\n… ${left.toLocaleString('en-US')} characters left out here; the ledger keeps the whole output …\n${chunk.slice(-tail)}`;
}

/** One batch as it goes out: neighbouring output of the same stream and item merged, every chunk capped. */
export function compactBatch(events: readonly RunFeedEvent[], maxChunk: number): RunFeedEvent[] {
  const out: RunFeedEvent[] = [];
  const parts: string[][] = [];
  for (const event of events) {
    const previous = out.at(-1);
    if (isOutput(event) && previous && isOutput(previous) && previous.kind === event.kind && previous.item === event.item) {
      parts.at(-1)!.push(event.chunk);
      continue;
    }
    out.push(event);
    parts.push(isOutput(event) ? [event.chunk] : []);
  }
  return out.map((event, i) => (isOutput(event) ? { ...event, chunk: capChunk(parts[i]!.join(''), maxChunk) } : event));
}

/**
 * Calls `fn` at most once per `intervalMs`: the first request runs at once, requests inside the
 * interval (or while `fn` runs) fold into one trailing call, so the last change is always shown.
 */
export class Throttle {
  private last = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly fn: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  request(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    const wait = this.last + this.intervalMs - this.now();
    if (wait <= 0) this.fire();
    else
      this.timer = setTimeout(() => {
        this.timer = null;
        this.fire();
      }, wait);
  }

  /** Resolves once no call runs or waits. */
  async idle(): Promise<void> {
    while (this.running || this.timer) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setTimeout(resolve, Math.max(0, this.last + this.intervalMs - this.now())));
    }
  }

  /** Drops a waiting call and refuses new ones; a call already running finishes. */
  stop(): void {
    this.stopped = true;
    this.again = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private fire(): void {
    this.last = this.now();
    this.running = this.fn()
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.request();
        }
      });
  }
}
