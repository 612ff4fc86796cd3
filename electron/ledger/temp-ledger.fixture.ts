/**
 * Test helpers: real ledgers in throwaway folders (`<root>/.baton/ledger`), and raw access to
 * events.jsonl for the tamper tests, which must edit the file the way an attacker or a crash would.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Actor } from '../../shared/ledger';
import { Ledger } from './ledger';

export const ORCHESTRATOR: Actor = { kind: 'orchestrator', id: 'baton' };
export const PERSON: Actor = { kind: 'person', id: 'Ada Lovelace <ada@example.com>' };

export interface TempLedger {
  /** The project folder (holds `.baton/`). */
  readonly root: string;
  readonly artifactRoot: string;
  readonly dir: string;
  readonly events: string;
  readonly ledger: Ledger;
}

/** A fixed clock that ticks one second per call, so `at` values are predictable. */
export const tickingClock = (start = Date.UTC(2025, 0, 1)): (() => Date) => {
  let t = start;
  return () => new Date((t += 1000));
};

export const makeTempLedger = async (options: { lockTimeoutMs?: number } = {}): Promise<TempLedger> => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'baton-ledger-'));
  const artifactRoot = path.join(root, '.baton');
  const dir = path.join(artifactRoot, 'ledger');
  return { root, artifactRoot, dir, events: path.join(dir, 'events.jsonl'), ledger: new Ledger(dir, { now: tickingClock(), ...options }) };
};

export const removeTemp = (root: string): Promise<void> => fs.rm(root, { recursive: true, force: true });

/** Appends `count` records, every second one with a small blob; returns them. */
export const appendSome = async (ledger: Ledger, count: number) => {
  const records = [];
  for (let i = 1; i <= count; i++) {
    records.push(
      await ledger.append({
        type: 'test.recorded',
        actor: ORCHESTRATOR,
        subject: { feature: 'F-1', item: `T${i}` },
        data: { i },
        blobs: i % 2 === 0 ? [{ name: 'stdout', content: `output of run ${i}\n` }] : [],
      }),
    );
  }
  return records;
};

/** The lines of events.jsonl without their `\n` (the last, empty piece dropped). */
export const readLines = async (events: string): Promise<string[]> => {
  const text = await fs.readFile(events, 'utf8');
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
};

export const writeLines = (events: string, lines: readonly string[]): Promise<void> => fs.writeFile(events, lines.map((line) => `${line}\n`).join(''));
