import { describe, expect, it } from 'vitest';
import { matchTurn, parseScenario } from './scenario';

const scenario = parseScenario(
  JSON.stringify({
    turns: [
      { role: 'navigator', item: 'T1', write: { 'test/t1.test.js': 'one' } },
      { role: 'driver', item: 'T1', attempt: 2, write: { 'src/a.js': 'fixed' } },
      { role: 'driver', item: 'T1', write: { 'src/a.js': 'first try' } },
      { role: 'driver', item: 'T1', step: 'refactor', write: { 'src/a.js': 'tidy' } },
      { role: 'navigator', item: 'T1', step: 'review', decision: 'smell', note: 'magic number' },
      { role: 'navigator', write: { 'test/any.test.js': 'x' } },
    ],
  }),
  'scenario.json',
);

describe('scenario matching', () => {
  it('matches by role, step and item; an exact attempt wins, else the n-th unnumbered turn', () => {
    expect(matchTurn(scenario, { role: 'driver', step: 'green', item: 'T1', attempt: 1 })?.write).toEqual({ 'src/a.js': 'first try' });
    expect(matchTurn(scenario, { role: 'driver', step: 'green', item: 'T1', attempt: 2 })?.write).toEqual({ 'src/a.js': 'fixed' });
    expect(matchTurn(scenario, { role: 'driver', step: 'green', item: 'T1', attempt: 3 })).toBeNull();
    expect(matchTurn(scenario, { role: 'driver', step: 'refactor', item: 'T1', attempt: 1 })?.write).toEqual({ 'src/a.js': 'tidy' });
    expect(matchTurn(scenario, { role: 'navigator', step: 'review', item: 'T1', attempt: 1 })?.decision).toBe('smell');
  });
  it('a turn without an item matches any item; an unmatched turn is an agent that did nothing', () => {
    expect(matchTurn(scenario, { role: 'navigator', step: 'red', item: 'T9', attempt: 1 })?.write).toEqual({ 'test/any.test.js': 'x' });
    expect(matchTurn(scenario, { role: 'driver', step: 'green', item: 'T9', attempt: 1 })).toBeNull();
  });
  it('the same request always gets the same turn (safe to replay after a restart)', () => {
    const request = { role: 'driver', step: 'green' as const, item: 'T1', attempt: 2 };
    expect(matchTurn(scenario, request)).toBe(matchTurn(scenario, request));
  });
  it('turns pinned to a round win in that round; unpinned turns serve the rest', () => {
    const rounds = parseScenario(
      JSON.stringify({
        turns: [
          { role: 'driver', item: 'T1', write: { 'src/a.js': 'wrong' } },
          { role: 'driver', item: 'T1', round: 2, write: { 'src/a.js': 'right' } },
          { role: 'navigator', item: 'T1', write: { 'test/t1.test.js': 'one' } },
        ],
      }),
      'scenario.json',
    );
    expect(matchTurn(rounds, { role: 'driver', step: 'green', item: 'T1', attempt: 1 })?.write).toEqual({ 'src/a.js': 'wrong' });
    expect(matchTurn(rounds, { role: 'driver', step: 'green', item: 'T1', attempt: 1, round: 2 })?.write).toEqual({ 'src/a.js': 'right' });
    // Nothing pinned for the navigator in round 2: its unpinned turn plays again.
    expect(matchTurn(rounds, { role: 'navigator', step: 'red', item: 'T1', attempt: 1, round: 2 })?.write).toEqual({ 'test/t1.test.js': 'one' });
    expect(matchTurn(rounds, { role: 'driver', step: 'green', item: 'T1', attempt: 1, round: 3 })?.write).toEqual({ 'src/a.js': 'wrong' });
  });
  it('bad scenarios say where and what', () => {
    expect(() => parseScenario('{"turns": [{"role": "pilot"}]}', 'demo.json')).toThrow(/demo\.json: turns\.0\.role/);
    expect(() => parseScenario('{"turns": [{"role": "driver", "write": {"../x": ""}}]}', 'demo.json')).toThrow(/relative path inside the worktree/);
    expect(() => parseScenario('{', 'demo.json')).toThrow(/not valid JSON/);
  });
});

describe('turns for one feature', () => {
  const pinned = parseScenario(
    JSON.stringify({ turns: [{ role: 'specAuthor', step: 'artifact', feature: 'F-inventory', write: { 'artifact.json': '{}' } }] }),
    'scenario.json',
  );
  it('play for that feature only: another feature (or none named) gets no turn', () => {
    expect(matchTurn(pinned, { role: 'specAuthor', step: 'artifact', item: null, attempt: 1, feature: 'F-inventory' })).not.toBeNull();
    expect(matchTurn(pinned, { role: 'specAuthor', step: 'artifact', item: null, attempt: 1, feature: 'F-gift' })).toBeNull();
    expect(matchTurn(pinned, { role: 'specAuthor', step: 'artifact', item: null, attempt: 1 })).toBeNull();
  });
});
