/**
 * Code that tells a test run apart, judged for a GREEN attempt or a REFACTOR (issue 30): every file
 * the Driver's turns of the step kept is scanned against the experiment branch the step started
 * from — for a repair round that includes what earlier attempts kept and replayed, so a tell cannot
 * survive by being left alone. A tell a person allowed for the item (`baton allow-tells`) is recorded
 * with its allowance; any other is refused: recorded as a violation, and the step is not GREEN (a
 * REFACTOR is undone).
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RECORD_TYPES } from '../../shared/records';
import type { StepInput } from '../orchestrator/cycle-types';
import { tellsIn, type Tell } from '../agents/test-detection';
import { allowedTells, allowTellsHint } from '../gates/tell-allowances';
import type { CycleDeps } from './cycle-deps';
import { git } from './git';
import type { CycleRecords } from './records';

/** A tell as a verdict records it: `allowed` names the allowance that let it through. */
export type JudgedTell = Tell & { readonly allowed?: string };

export interface CycleTells {
  /** Every tell the step's code brought in, allowed ones marked. */
  readonly tells: readonly JudgedTell[];
  /** The tells no one allowed: the step's violation. */
  readonly refused: readonly Tell[];
}

/** The tells in the kept files (`kept`: what the step's turns kept, in order), against the commit `base`. */
export async function cycleTells(
  deps: CycleDeps,
  input: StepInput,
  at: {
    readonly worktree: string;
    readonly base: string;
    readonly kept: ReadonlyArray<{ readonly kind: string; readonly path: string; readonly from?: string }>;
  },
): Promise<CycleTells> {
  // A file's first appearance says where it came from (a rename's old path), its last what it is now.
  const files = new Map<string, string>();
  for (const c of at.kept) if (!files.has(c.path)) files.set(c.path, c.kind === 'renamed' && c.from ? c.from : c.path);
  const found: Tell[] = [];
  for (const [path, from] of files) {
    const info = await lstat(join(at.worktree, path)).catch(() => null);
    if (!info?.isFile()) continue;
    const after = await readFile(join(at.worktree, path), 'utf8');
    const before = await git(deps.root, ['show', `${at.base}:${from}`]).catch(() => null);
    found.push(...tellsIn(path, before, after));
  }
  if (found.length === 0) return { tells: [], refused: [] };
  const allowed = allowedTells((await deps.ledger.read()).records, input.feature, input.item);
  return {
    tells: found.map((t) => (allowed.has(t.id) ? { ...t, allowed: allowed.get(t.id)! } : t)),
    refused: found.filter((t) => !allowed.has(t.id)),
  };
}

/** What earlier GREEN attempts of this cycle kept (replayed into this attempt's worktree). */
export async function keptBefore(records: CycleRecords, attempt: number): Promise<Array<{ kind: string; path: string; from?: string }>> {
  const out: Array<{ kind: string; path: string; from?: string }> = [];
  for (let a = 1; a < attempt; a += 1) out.push(...((await records.find(RECORD_TYPES.cycleGreen, `green:${a}`))?.data.kept ?? []));
  return out;
}

/** What a person reads of a tell (a recorded one may predate ids). */
type Shown = Pick<Tell, 'file' | 'line' | 'why' | 'text'>;

const listed = (tells: readonly Shown[]) => tells.map((t) => `- ${t.file}:${t.line} ${t.why}: ${t.text}`).join('\n');

/** The Driver's feedback for its repair round. */
export const removeTells = (tells: readonly Shown[]): string =>
  `Remove the code that tells a test run apart: code must do the same under the tests as in production.\n${listed(tells)}`;

/** Why the cycle escalates when no repair round is left, and how a person lets the code through. */
export const tellsEscalation = (input: StepInput, tells: readonly Shown[]): string =>
  `The Driver's code tells a test run apart:\n${listed(tells)}\n${allowTellsHint(input.feature, input.item)}`;

/** The refused tells, recorded once per step and attempt as the Driver's violation. */
export async function recordTells(deps: CycleDeps, records: CycleRecords, input: StepInput, step: 'green' | 'refactor', tells: readonly Tell[]): Promise<void> {
  await records.once(
    RECORD_TYPES.cycleViolation,
    `tells:${step}:${input.attempt}`,
    {
      attempt: input.attempt,
      step,
      files: [...new Set(tells.map((t) => t.file))].map((path) => ({ path, kind: 'tell' })),
      against: 'code that tells a test run apart',
      detail: listed(tells),
      tells,
    },
    [],
    { kind: 'agent', id: `driver:${deps.agent('driver').name}` },
  );
}
