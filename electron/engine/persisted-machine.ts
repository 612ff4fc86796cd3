/**
 * The one way the engine runs a persisted state machine (the lifecycle, each item's cycle): create
 * the actor from its snapshot on disk, persist `{ machine, version, snapshot }` after every
 * transition, tell the caller about each new state, stop on abort, wait until it settles or a
 * caller's stop state, and flush. A snapshot written by another version of a machine, or in a state
 * the machine does not have, is refused with a message that says what to do — never resumed wrongly.
 */
import { createActor, waitFor, type AnyStateMachine, type SnapshotFrom } from 'xstate';
import type { StateStore } from './state-store';

export interface PersistedMachine<M extends AnyStateMachine> {
  readonly machine: M;
  /** Bumped whenever a state is renamed or removed, or the context changes shape. */
  readonly version: number;
  readonly store: StateStore;
  /** The snapshot file's name in the store. */
  readonly name: string;
  readonly input: unknown;
  readonly signal?: AbortSignal | undefined;
  /** Each time the machine enters a different (top-level) state. */
  readonly onState?: (state: string, snapshot: SnapshotFrom<M>) => void;
  /** Ends the wait early (the actor is stopped; its snapshot on disk resumes it). */
  readonly stopAt?: (state: string) => boolean;
  /** Runs once the actor has started, before the wait (e.g. send an event to a resumed machine). */
  readonly started?: (actor: { getSnapshot(): { value: unknown }; send(event: never): void }) => Promise<void>;
}

interface Envelope {
  readonly machine: string;
  readonly version: number;
  readonly snapshot: { readonly value?: unknown };
}

const stateOf = (value: unknown): string => (typeof value === 'string' ? value : value && typeof value === 'object' ? (Object.keys(value)[0] ?? '') : '');

/** The machine's top-level state names. */
export const statesOf = (machine: AnyStateMachine): string[] => Object.keys(machine.root.states);

/**
 * The saved snapshot, checked against the machine; null when there is none. A file from before
 * snapshots carried a version (a bare snapshot) is read as version 1.
 */
export async function readSnapshot<M extends AnyStateMachine>(store: StateStore, name: string, machine: M, version: number): Promise<SnapshotFrom<M> | null> {
  const saved = await store.read<Envelope | { value?: unknown; machine?: undefined }>(name);
  if (saved === null) return null;
  const envelope: Envelope = typeof saved.machine === 'string' ? (saved as Envelope) : { machine: machine.id, version: 1, snapshot: saved };
  const where = store.fileOf(name);
  const restart = 'Delete it to start that machine again from its beginning (the ledger keeps what already happened), or use the Baton version that wrote it.';
  if (envelope.machine !== machine.id)
    throw new Error(`${where} holds a "${envelope.machine}" machine's snapshot, not the "${machine.id}" machine's. ${restart}`);
  if (envelope.version !== version)
    throw new Error(`${where} was written by version ${envelope.version} of the ${machine.id} machine; this Baton runs version ${version}. ${restart}`);
  const state = stateOf(envelope.snapshot?.value);
  const states = statesOf(machine);
  if (!states.includes(state))
    throw new Error(`${where} is in state "${state}", which the ${machine.id} machine does not have (its states: ${states.join(', ')}). ${restart}`);
  return envelope.snapshot as SnapshotFrom<M>;
}

/** Runs the machine to its end (or `stopAt`, or an abort); returns its last snapshot. */
export async function runPersisted<M extends AnyStateMachine>(run: PersistedMachine<M>): Promise<SnapshotFrom<M>> {
  const { machine, version, store, name, signal } = run;
  const saved = await readSnapshot(store, name, machine, version);
  // Typed loosely inside: xstate's generic actor options do not narrow for an arbitrary machine.
  const actor = createActor(machine as AnyStateMachine, saved ? { input: run.input, snapshot: saved as never } : { input: run.input });
  let last = '';
  actor.subscribe((snapshot: { value: unknown }) => {
    void store.write(name, { machine: machine.id, version, snapshot: actor.getPersistedSnapshot() });
    const state = stateOf(snapshot.value);
    if (state !== last) {
      last = state;
      run.onState?.(state, snapshot as SnapshotFrom<M>);
    }
  });
  actor.start();
  const onAbort = () => actor.stop();
  if (signal?.aborted) actor.stop();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await run.started?.(actor);
    return (await waitFor(actor, (s: { status: string; value: unknown }) => s.status !== 'active' || (run.stopAt?.(stateOf(s.value)) ?? false), {
      timeout: Infinity,
    })) as SnapshotFrom<M>;
  } catch {
    return actor.getSnapshot() as SnapshotFrom<M>;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await store.flush();
    actor.stop();
  }
}
