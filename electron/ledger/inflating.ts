/**
 * A gzip file read as a stream of inflated bytes, a piece at a time: what a bundle is unpacked from
 * (open-bundle.ts) without ever holding it whole. Past `maxBytes` of inflated output it throws
 * TooLarge, having inflated no further (a small gzip can claim gigabytes).
 */
import type { FileHandle } from 'node:fs/promises';
import { createGunzip, type Gunzip } from 'node:zlib';

export class TooLarge extends Error {}
/** The stream ended before what was asked for: `what` names it. */
export class Truncated extends Error {}

export class Inflating {
  private readonly gunzip: Gunzip;
  private readonly chunks: AsyncIterator<Buffer>;
  private buffer: Buffer = Buffer.alloc(0);
  private inflated = 0;

  constructor(
    handle: FileHandle,
    private readonly maxBytes: number,
  ) {
    const file = handle.createReadStream({ start: 0, autoClose: false });
    this.gunzip = createGunzip();
    file.on('error', (error) => this.gunzip.destroy(error));
    file.pipe(this.gunzip);
    this.chunks = this.gunzip[Symbol.asyncIterator]();
  }

  /** Exactly `n` bytes, or null when the stream ends first. */
  async take(n: number): Promise<Buffer | null> {
    while (this.buffer.length < n) if (!(await this.more())) return null;
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** The next `n` bytes as they inflate, in pieces; Truncated (naming `what`) if the stream ends first. */
  async *pieces(n: number, what: string): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buffer.length === 0 && !(await this.more())) throw new Truncated(`the archive ends in the middle of ${what} (truncated)`);
      const piece = this.buffer.subarray(0, Math.min(left, this.buffer.length));
      this.buffer = this.buffer.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }

  async discard(n: number, what: string): Promise<void> {
    for await (const piece of this.pieces(n, what)) void piece;
  }

  close(): void {
    this.gunzip.destroy();
  }

  private async more(): Promise<boolean> {
    const next = await this.chunks.next();
    if (next.done) return false;
    const chunk = next.value;
    this.inflated += chunk.length;
    if (this.inflated > this.maxBytes) throw new TooLarge();
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    return true;
  }
}
