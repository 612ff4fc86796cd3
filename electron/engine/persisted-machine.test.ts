/**
 * Persisted machines: what is on disk is `{ machine, version, snapshot }`; a snapshot from another
 * version or in a state the machine does not have is refused with a clear message, never resumed;
 * a bare snapshot from before versions is read as version 1; the machines' state names are the ones
 * the UI lists.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { CYCLE_STATE_NAMES, LIFECYCLE_STATE_NAMES } from '../../shared/run';
import { cycleMachine } from '../orchestrator/cycle-machine';
import { lifecycleMachine } from '../orchestrator/lifecycle-machine';
import { readSnapshot, runPersisted, statesOf } from './persisted-machine';
import { StateStore } from './state-store';

const counter = setup({ types: { context: {} as { n: number }, events: {} as { type: 'GO' } } }).createMachine({
  id: 'counter',
  context: { n: 0 },
  initial: 'one',
  states: {
    one: { on: { GO: { target: 'two', actions: assign({ n: ({ context }) => context.n + 1 }) } } },
    two: { on: { GO: { target: 'three', actions: assign({ n: ({ context }) => context.n + 1 }) } } },
    three: { type: 'final' },
  },
});

let dir: string;
let store: StateStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-machine-'));
  store = new StateStore(dir);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const file = () => join(dir, 'm.json');

describe('a persisted machine', () => {
  it('saves { machine, version, snapshot } after each step, reports each state once, and resumes from disk', async () => {
    const states: string[] = [];
    const stopped = await runPersisted({
      machine: counter,
      version: 3,
      store,
      name: 'm',
      input: {},
      onState: (s) => states.push(s),
      stopAt: (s) => s === 'two',
      started: async (actor) => actor.send({ type: 'GO' } as never),
    });
    expect(String(stopped.value)).toBe('two');
    expect(states).toEqual(['one', 'two']);
    const saved = JSON.parse(await readFile(file(), 'utf8'));
    expect(saved).toMatchObject({ machine: 'counter', version: 3, snapshot: { value: 'two', context: { n: 1 } } });
    const end = await runPersisted({
      machine: counter,
      version: 3,
      store,
      name: 'm',
      input: {},
      started: async (actor) => actor.send({ type: 'GO' } as never),
    });
    expect(end.status).toBe('done');
    expect(end.context.n).toBe(2);
  });

  it('refuses a snapshot of another version, another machine or an unknown state, saying what to do', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(file(), JSON.stringify({ machine: 'counter', version: 2, snapshot: { value: 'two' } }));
    await expect(readSnapshot(store, 'm', counter, 3)).rejects.toThrow(
      `${file()} was written by version 2 of the counter machine; this Baton runs version 3. Delete it to start that machine again`,
    );
    await writeFile(file(), JSON.stringify({ machine: 'cycle', version: 3, snapshot: { value: 'two' } }));
    await expect(readSnapshot(store, 'm', counter, 3)).rejects.toThrow('holds a "cycle" machine\'s snapshot, not the "counter" machine\'s');
    await writeFile(file(), JSON.stringify({ machine: 'counter', version: 3, snapshot: { value: 'twoo' } }));
    await expect(readSnapshot(store, 'm', counter, 3)).rejects.toThrow(
      'is in state "twoo", which the counter machine does not have (its states: one, two, three)',
    );
    // And a run never starts from it.
    await expect(runPersisted({ machine: counter, version: 3, store, name: 'm', input: {} })).rejects.toThrow('twoo');
  });

  it('reads a bare snapshot from before versions as version 1', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(file(), JSON.stringify({ status: 'active', value: 'two', context: { n: 5 } }));
    expect(await readSnapshot(store, 'm', counter, 1)).toMatchObject({ value: 'two', context: { n: 5 } });
    await expect(readSnapshot(store, 'm', counter, 2)).rejects.toThrow('version 1 of the counter machine');
  });
});

describe('the state names the UI lists', () => {
  it('are exactly the machines’ states, in order', () => {
    expect(statesOf(lifecycleMachine)).toEqual([...LIFECYCLE_STATE_NAMES]);
    expect(statesOf(cycleMachine)).toEqual([...CYCLE_STATE_NAMES]);
  });
});
