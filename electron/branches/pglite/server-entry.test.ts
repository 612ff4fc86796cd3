/** Which file starts the embedded database's server: the bundle, unless its source is newer. */
import { describe, expect, it } from 'vitest';
import { serverEntry } from './server-process';

describe('serverEntry', () => {
  it('runs the bundle when it is as new as the source, the source when the bundle is older or missing', () => {
    expect(serverEntry(200, 100)).toBe('compiled');
    expect(serverEntry(100, 100)).toBe('compiled');
    expect(serverEntry(100, 200)).toBe('source');
    expect(serverEntry(null, 200)).toBe('source');
  });

  it('runs the bundle when there is no source at all (a packaged app ships only dist/)', () => {
    expect(serverEntry(100, null)).toBe('compiled');
  });
});
