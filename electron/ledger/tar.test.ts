import { describe, expect, it } from 'vitest';
import { readTar, tarEnd, tarFile } from './tar';

describe('the ustar writer and reader', () => {
  it('round-trips files, empty ones and paths longer than 100 bytes', () => {
    const long = `${'deep/'.repeat(30)}file.json`;
    const files = [
      { path: 'manifest.json', content: Buffer.from('{}') },
      { path: 'empty', content: Buffer.alloc(0) },
      { path: long, content: Buffer.alloc(513, 7) },
    ];
    const tar = Buffer.concat([...files.map((f) => tarFile(f.path, f.content, new Date(0))), tarEnd()]);
    expect(tar.length % 512).toBe(0);
    expect(readTar(tar)).toEqual(files.map((f) => ({ ...f, typeflag: '0' })));
  });

  it('refuses a path ustar cannot hold', () => {
    expect(() => tarFile('x'.repeat(101), Buffer.alloc(0), new Date(0))).toThrow(/too long for a bundle entry/);
  });

  it('detects a damaged header and a truncated archive', () => {
    const tar = Buffer.concat([tarFile('a.txt', Buffer.from('hello'), new Date(0)), tarEnd()]);
    const damaged = Buffer.from(tar);
    damaged[0] = 0x62; // 'a.txt' → 'b.txt' without fixing the checksum
    expect(() => readTar(damaged)).toThrow(/checksum mismatch/);
    expect(() => readTar(tar.subarray(0, 515))).toThrow(/ends in the middle of a\.txt/);
    expect(() => readTar(tar.subarray(0, 100))).toThrow(/truncated/);
  });
});
