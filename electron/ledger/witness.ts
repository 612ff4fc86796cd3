/**
 * A witness outside the folder (issue 32): each user's Baton keeps, in its config folder, the newest
 * checkpoint it has signed or verified as trusted for each project, so a folder put back to an older
 * signed state (the ledger cut to an earlier checkpoint, the older `checkpoints.jsonl` restored, git's
 * branches deleted) no longer verifies on this machine: "rolled back", with both heads.
 *
 * A project is known by its genesis record's hash (record #1), which every copy, clone and bundle of
 * it shares. `witnesses.json` is `{version: 1, projects: {<genesis>: {seq, head, key, signedAt, seenAt}}}`,
 * written atomically (0600); an entry only ever moves forward. Two Batons updating it at the same
 * instant can lose one update (the older witness stays): a weaker check, never a false alarm.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LedgerRecord, VerifyProblem } from '../../shared/ledger';
import { writeFileAtomic } from '../platform/atomic-write';
import { isSha256 } from './ledger-file';

export const WITNESS_FILE = 'witnesses.json';

export interface Witness {
  readonly seq: number;
  readonly head: string;
  /** The public key that signed the checkpoint. */
  readonly key: string;
  /** When the checkpoint was signed (its own time), or null for a legacy one. */
  readonly signedAt: string | null;
  /** When this machine saw it. */
  readonly seenAt: string;
}

type Witnesses = Record<string, Witness>;

const isWitness = (w: unknown): w is Witness => {
  const o = w as Partial<Witness> | null;
  return !!o && Number.isInteger(o.seq) && (o.seq ?? 0) > 0 && isSha256(o.head) && typeof o.key === 'string';
};

/** Every witness this user holds; a missing or unreadable file holds none (the check is then as before). */
export async function readWitnesses(configDir: string): Promise<Witnesses> {
  try {
    const file = JSON.parse(await fs.readFile(path.join(configDir, WITNESS_FILE), 'utf8')) as { projects?: Record<string, unknown> };
    const out: Witnesses = Object.create(null) as Witnesses;
    for (const [genesis, w] of Object.entries(file.projects ?? {})) if (isSha256(genesis) && isWitness(w)) out[genesis] = w;
    return out;
  } catch {
    return Object.create(null) as Witnesses;
  }
}

/** The project's witness, by its genesis record; null when this machine has seen none (or the ledger is empty). */
export async function witnessFor(configDir: string, records: readonly LedgerRecord[]): Promise<Witness | null> {
  const genesis = records[0]?.hash;
  return genesis ? ((await readWitnesses(configDir))[genesis] ?? null) : null;
}

/** Remembers a checkpoint this machine signed or trusted, when it is newer than the one it holds. */
export async function rememberCheckpoint(
  configDir: string,
  genesis: string,
  checkpoint: { readonly seq: number; readonly head: string; readonly publicKey: string; readonly time: string | null },
): Promise<void> {
  const all = await readWitnesses(configDir);
  if ((all[genesis]?.seq ?? 0) >= checkpoint.seq) return;
  all[genesis] = { seq: checkpoint.seq, head: checkpoint.head, key: checkpoint.publicKey, signedAt: checkpoint.time, seenAt: new Date().toISOString() };
  await fs.mkdir(configDir, { recursive: true });
  await writeFileAtomic(path.join(configDir, WITNESS_FILE), `${JSON.stringify({ version: 1, projects: all }, null, 2)}\n`, { mode: 0o600 });
}

const short = (hash: string) => `${hash.slice(0, 12)}…`;

/**
 * What the witness says of the folder: its record gone or different ("rolled back" or rewritten), or
 * the folder's newest valid checkpoint older than it. Null when the folder is at least as new.
 */
export function witnessProblem(witness: Witness, records: readonly LedgerRecord[], signedSeq: number | null, file: string): VerifyProblem | null {
  const seen = `this machine has seen record #${witness.seq} (head ${short(witness.head)}) signed by key ${witness.key.slice(0, 16)}…${witness.signedAt ? ` at ${witness.signedAt}` : ''}`;
  const fix =
    'Restore .baton/ledger (events.jsonl, blobs and checkpoints.jsonl) from a backup or a review bundle; decisions recorded after the older state are gone from this folder.';
  const at = records.find((r) => r.seq === witness.seq);
  if (!at) {
    const head = records.at(-1);
    return {
      file,
      seq: witness.seq,
      message: `rolled back: ${seen}, but the ledger ends at record #${head?.seq ?? 0}${head ? ` (head ${short(head.hash)})` : ''}. ${fix}`,
    };
  }
  if (at.hash !== witness.head) {
    return { file, seq: witness.seq, message: `rewritten: ${seen}, but record #${witness.seq} now hashes to ${short(at.hash)}. ${fix}` };
  }
  if ((signedSeq ?? 0) < witness.seq) {
    return {
      file,
      seq: witness.seq,
      message: `checkpoints rolled back: ${seen}, but the newest valid checkpoint in the folder is ${signedSeq ? `at record #${signedSeq}` : 'none'}. ${fix}`,
    };
  }
  return null;
}
