import { describe, expect, it } from 'vitest';
import { windowTitle } from './window-title';

describe('windowTitle', () => {
  it('leads with the decisions waiting, and says nothing of them when there are none', () => {
    expect(windowTitle('shop', 2)).toBe('(2) shop — Baton');
    expect(windowTitle('shop', 1)).toBe('(1) shop — Baton');
    expect(windowTitle('shop', 0)).toBe('shop — Baton');
    expect(windowTitle(null, 0)).toBe('Baton');
  });
});
