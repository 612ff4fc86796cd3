/**
 * Fuzzing a project folder: one file at a time is replaced by a mutation of itself, `baton
 * inspect|gates|verify --json` run on the folder through the CLI's main, and the file restored.
 * The files and the mutators rotate independently, so a fixed case count spreads every mutator over
 * the files; the seed decides where each mutation lands and what it puts there.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type Mutator, mutatorsFor } from './mutators.fixture';
import { type FuzzLog, FuzzSandbox, inLanes, judgeCli } from './sandbox.fixture';

export const CLI_TIMEOUT_MS = 30_000;

/** A worker and what it works on: its own copy of the project (or its own bundle file). */
export interface Lane {
  readonly sandbox: FuzzSandbox;
  readonly root: string;
}

export const makeLanes = (roots: readonly string[]): Lane[] => roots.map((root) => ({ sandbox: new FuzzSandbox(), root }));

export const closeLanes = async (lanes: readonly Lane[], removeCopies = true): Promise<void> => {
  await Promise.all(lanes.map((lane) => lane.sandbox.close()));
  // The first root is the seed project, removed by its own fixture; the others are lane copies.
  if (removeCopies) await Promise.all(lanes.slice(1).map((lane) => fs.rm(lane.root, { recursive: true, force: true })));
};

/** `baton <command> <target> --json` in the lane's worker, judged and noted. */
export const runCli = async (log: FuzzLog, lane: Lane, command: string, target: string, input: string): Promise<void> => {
  const outcome = await lane.sandbox.call<{ code: number; out: string; err: string }>('cli', [[command, target, '--json']], CLI_TIMEOUT_MS);
  log.note(`${input} → baton ${command}`, judgeCli(outcome, CLI_TIMEOUT_MS), outcome.ms);
  if (outcome.kind !== 'value') return;
  try {
    const doc = JSON.parse(outcome.value.out) as { error?: { message?: string }; problems?: { file: string; message: string }[] };
    if (doc.error) log.answer(`${command}: error: ${doc.error.message}`);
    for (const p of doc.problems ?? []) log.answer(`${command}: problem: ${p.file}: ${p.message}`);
  } catch {
    // judgeCli has noted output that is not JSON
  }
};

export interface FolderFuzz {
  readonly log: FuzzLog;
  readonly lanes: readonly Lane[];
  /** Files (relative to a lane's root) whose mutations are tried, in rotation. */
  readonly files: readonly string[];
  readonly commands: readonly string[];
  readonly cases: number;
  readonly extra?: (file: string) => readonly Mutator[];
}

/** Runs `cases` inputs; each through every command in `commands`. */
export const fuzzFolder = async (f: FolderFuzz): Promise<void> => {
  const seeds = new Map<string, Buffer>();
  for (const file of f.files) seeds.set(file, await fs.readFile(path.join(f.lanes[0]!.root, file)));
  const plans = f.files.map((file) => ({ file, mutators: mutatorsFor(seeds.get(file)!, f.extra?.(file) ?? []) }));
  await inLanes(f.cases, f.lanes, async (lane, i) => {
    const plan = plans[i % plans.length]!;
    const mutator = plan.mutators[i % plan.mutators.length]!;
    const seed = seeds.get(plan.file)!;
    const mutated = mutator.apply(seed, f.log.rng(i));
    const abs = path.join(lane.root, plan.file);
    await fs.writeFile(abs, mutated.bytes);
    f.log.cases++;
    for (const command of f.commands) await runCli(f.log, lane, command, lane.root, `#${i} ${plan.file} ${mutated.mutation}`);
    await fs.writeFile(abs, seed);
  });
};
