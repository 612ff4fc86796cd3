/**
 * The data of an item's mutation record (records.ts keeps the table of every record type): what
 * the item's tests killed on its GREEN commit and, after a strengthening round, what the
 * Navigator's added tests killed of the survivors and whether they pass on the GREEN code.
 */
import { z } from 'zod';

const text = z.string();
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();
const count = z.number().int().nonnegative();
const hash = z.string().regex(/^[0-9a-f]{64}$/, 'is not a lowercase hex SHA-256');

/** A mutant the locked tests did not kill: where, which mutation, the code before and after. */
const survivedMutant = z.object({ id: text, file: text, line: count, column: count, operator: text, original: text, replacement: text });

/** A strengthening round (mutation/strengthen.ts): the tests the Navigator added, and what they did. */
const strengthening = z.object({
  /** The `cycle.mutated` record whose survivors the round was about. */
  of: hash,
  files: list(z.object({ path: text, sha256: hash, bytes: count })),
  /** Every test of the item, the added ones too, passed on the GREEN code (a run that can be trusted). */
  passedOnGreen: z.boolean(),
  /** Tests that did not pass on the GREEN code. */
  failing: list(text),
  /** The survivors the added tests killed. */
  killed: list(text),
  /** The added tests are kept: committed to the story's branch under this record (they pass on the GREEN code and kill a survivor). */
  kept: z.boolean(),
  /** Why the round did not make the item's tests strong enough (null: it did). */
  why: z.string().nullable(),
  turnMs: z.number(),
  /** Locked files the turn changed: restored, never used (a violation). */
  violations: list(text),
  /** Tells in the added tests (reading the code as text, telling a mutant's run apart): those files were refused, neither run nor kept. */
  tells: list(z.object({ file: text, line: count, why: text, id: text })).optional(),
});

export const MUTATED_DATA = z.looseObject({
  key: text,
  /** The GREEN commit and tree mutated, and the changed source files whose lines were. */
  commit: text,
  tree: text,
  files: list(text),
  /** Mutants the changed lines gave, and how many of them ran (at most `mutation.maxMutants`). */
  found: count,
  tested: count,
  killed: count,
  /** Of the killed: by running past the time limit (an endless loop is a detected mutant). */
  timedOut: count,
  survived: list(survivedMutant),
  /** Mutants whose run could not be judged (the run itself failed): counted neither way, with why. */
  errors: list(z.object({ id: text, why: text })),
  /** killed / (killed + survived); null when no mutant could be judged. */
  score: z.number().min(0).max(1).nullable(),
  minScore: z.number().min(0).max(1),
  ms: z.number(),
  strengthened: strengthening.optional(),
});

/** The files of a strengthening round that were not refused for a tell: the ones it may keep. */
export const keptFiles = <F extends { path: string }>(round: { files: readonly F[]; tells?: readonly { file: string }[] | undefined }): F[] => {
  const refused = new Set(round.tells?.map((t) => t.file));
  return round.files.filter((f) => !refused.has(f.path));
};
