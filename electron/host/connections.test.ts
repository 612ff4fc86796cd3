/** Who makes room when the browser host is full (connections.ts): per token, fairly, idle first. */
import { describe, expect, it } from 'vitest';
import { ConnectionBook } from './connections';

function book(limits = { total: 6, perClient: 3, evictIdleMs: 1000 }) {
  let now = 0;
  const b = new ConnectionBook<string>(limits, () => now);
  return { b, at: (ms: number) => (now = ms) };
}

describe('ConnectionBook', () => {
  it('accepts while there is room, and one token past its limit gives up its own longest-idle connection', () => {
    const { b, at } = book();
    for (const [i, conn] of ['a1', 'a2', 'a3'].entries()) {
      at(i * 10);
      expect(b.admit('a')).toEqual({ evict: [], because: null, refused: null });
      b.add(conn, 'a');
    }
    at(50);
    b.touch('a1');
    // a2 is now a's longest idle: it goes for a's fourth, whoever else is connected.
    b.add('b1', 'b');
    expect(b.admit('a')).toEqual({ evict: ['a2'], because: 'own', refused: null });
  });

  it('when full, a client holding fewer takes the biggest holder’s longest-idle connection, however recent', () => {
    const { b, at } = book();
    ['a1', 'a2', 'a3'].forEach((c, i) => (at(100 + i), b.add(c, 'a')));
    ['b1', 'b2', 'b3'].forEach((c, i) => (at(200 + i), b.add(c, 'b')));
    at(210);
    expect(b.size).toBe(6);
    expect(b.admit('c')).toEqual({ evict: ['a1'], because: 'fair', refused: null });
  });

  it('when full and the newcomer holds as many as anyone, the longest idle of all goes once idle long enough, else 503', () => {
    const { b, at } = book({ total: 4, perClient: 3, evictIdleMs: 1000 });
    ['a', 'b', 'c', 'd'].forEach((client, i) => (at(i), b.add(`${client}1`, client)));
    at(500);
    expect(b.admit('e')).toMatchObject({ evict: [], refused: expect.stringContaining('4 connections are open') });
    expect(b.admit('a')).toMatchObject({ evict: [], refused: expect.any(String) });
    at(1000);
    expect(b.admit('e')).toEqual({ evict: ['a1'], because: 'idle', refused: null });
  });

  it('takes out idle connections for the sweep and forgets removed ones', () => {
    const { b, at } = book();
    b.add('a1', 'a');
    at(10);
    b.add('b1', 'b');
    at(1005);
    expect(b.takeIdle(1000)).toEqual(['a1']);
    expect(b.size).toBe(1);
    b.remove('b1');
    expect(b.size).toBe(0);
  });
});
