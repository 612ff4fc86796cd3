/**
 * Test helper for the tamper suite (tamper-*.test.ts): one real project run to acceptance with a
 * scripted agent (real git, PGlite, node:test), copied whole (.git included) for each attack, and
 * the `baton` CLI run in-process against the copy with its own config folder (BATON_CONFIG_DIR).
 * The ledger helpers do what an attacker with write access to the folder can do: read and rewrite
 * events.jsonl, and recompute every hash after an edit so the chain itself stays intact.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LedgerRecord, VerifyReport } from '../../shared/ledger';
import { greenTurn, makeCycleProject, redTurn, testFile, type CycleProject } from '../engine/cycle-project.fixture';
import { runFeature } from '../engine/run-feature';
import { recordHash } from '../ledger/hashing';
import { removeDir } from '../project/temp-project.fixture';
import { builtOnce, type Built } from '../platform/run-scratch.fixture';
import { main } from './main';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const exec = promisify(execFile);

/** beforeAll's budget: the real run takes about a minute and a half on two cores. */
export const BUILD_TIMEOUT = 240_000;
/** Each attack copies the whole project and runs the CLI on it, some more than once. */
export const ATTACK_TIMEOUT = 60_000;

/**
 * Two items, RED then GREEN each; T2's Driver also rewrites T1's locked test (a violation, restored
 * by the orchestrator), so the ledger holds a violation record before the last anchored commit.
 */
export async function buildTamperProject(): Promise<CycleProject> {
  const t2 = greenTurn('T2', ['T1']);
  const cheat = { ...t2, write: { ...t2.write, 'test/T1.test.js': testFile([['T1 adds', 'assert.ok(true);']]) } };
  const project = await makeCycleProject(['T1', 'T2'], { turns: [redTurn('T1'), greenTurn('T1'), redTurn('T2'), cheat] } as never);
  await seedTemplate(project.dataDir);
  const summary = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50 });
  if (summary.phase !== 'acceptance') throw new Error(`the tamper project stopped at ${summary.phase}, not acceptance`);
  return project;
}

export interface Copy {
  /** The copied project folder. */
  readonly root: string;
  /** This copy's own config folder (the victim's keys and trust lists). */
  readonly config: string;
  /** The folder holding both (and any other config folder a test makes). */
  readonly base: string;
}

/**
 * The project, built once per vitest run (the first tamper file builds it, the others wait and
 * share it: see builtOnce), and the copies each attack works on. The shared project is never
 * changed: every attack works on its own copy.
 */
export class TamperLab {
  private project: Built | null = null;
  private readonly bases: string[] = [];

  async build(): Promise<void> {
    this.project = await builtOnce(
      'tamper-project',
      async (into) => {
        const built = await buildTamperProject();
        try {
          await cp(built.root, into, { recursive: true, verbatimSymlinks: true });
        } finally {
          await removeDir(join(built.root, '..'));
        }
      },
      BUILD_TIMEOUT,
    );
  }

  /** A fresh copy of the whole project folder (.git included), with an empty config folder beside it. */
  async copy(): Promise<Copy> {
    if (!this.project) throw new Error('TamperLab.build() has not run');
    const base = await mkdtemp(join(tmpdir(), 'baton-tamper-'));
    this.bases.push(base);
    const root = join(base, 'app');
    await cp(this.project.dir, root, { recursive: true, verbatimSymlinks: true });
    const config = join(base, 'config');
    await mkdir(config);
    return { root, config, base };
  }

  /** Another person's config folder next to the copy (an attacker's, a teammate's). */
  async person(copy: Copy, name: string): Promise<string> {
    const dir = join(copy.base, name);
    await mkdir(dir);
    return dir;
  }

  async dispose(): Promise<void> {
    for (const base of this.bases) await removeDir(base);
    if (this.project && !this.project.shared) await removeDir(this.project.dir);
  }
}

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `baton <argv>` in-process with BATON_CONFIG_DIR = `config`; output captured, nothing printed. */
export async function baton(config: string, ...argv: string[]): Promise<CliRun> {
  const saved = process.env.BATON_CONFIG_DIR;
  process.env.BATON_CONFIG_DIR = config;
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    if (saved === undefined) delete process.env.BATON_CONFIG_DIR;
    else process.env.BATON_CONFIG_DIR = saved;
  }
}

export type Report = VerifyReport & { readonly strict?: readonly string[] };

/** `baton verify <dir> --json [flags]`: its exit code and report. */
export async function verify(copy: Pick<Copy, 'root' | 'config'>, ...flags: string[]): Promise<{ code: number; report: Report }> {
  const run = await baton(copy.config, 'verify', copy.root, '--json', ...flags);
  return { code: run.code, report: JSON.parse(run.out) as Report };
}

/** Every problem as one line of text (file, seq, message), for matching. */
export const problemText = (report: Report): string[] => report.problems.map((p) => `${p.file}${p.seq !== undefined ? ` #${p.seq}` : ''}: ${p.message}`);

export const eventsFile = (root: string): string => join(root, '.baton', 'ledger', 'events.jsonl');
export const checkpointsFile = (root: string): string => join(root, '.baton', 'ledger', 'checkpoints.jsonl');
export const blobFile = (root: string, sha256: string): string => join(root, '.baton', 'ledger', 'blobs', sha256);

/** The ledger's records as written (each line parsed). */
export async function readRecords(root: string): Promise<LedgerRecord[]> {
  const text = await readFile(eventsFile(root), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LedgerRecord);
}

/** Writes `records` as events.jsonl, one JSON line each, exactly as given. */
export async function writeRecords(root: string, records: readonly LedgerRecord[]): Promise<void> {
  await writeFile(eventsFile(root), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/** What an attacker with the hashing code does: renumber every record and recompute each `prev` and `hash`. */
export function rechain(records: readonly LedgerRecord[]): LedgerRecord[] {
  const out: LedgerRecord[] = [];
  let prev = '0'.repeat(64);
  for (const [index, record] of records.entries()) {
    const body = { ...record, seq: index + 1, prev };
    const hash = recordHash(body);
    out.push({ ...body, hash });
    prev = hash;
  }
  return out;
}

/** A record appended after `records` with a correct seq, prev and hash. */
export function forgeAfter(records: readonly LedgerRecord[], record: Omit<LedgerRecord, 'seq' | 'prev' | 'hash'>): LedgerRecord {
  const last = records.at(-1)!;
  const body = { ...record, seq: last.seq + 1, prev: last.hash };
  return { ...body, hash: recordHash(body) };
}

export interface AnchoredCommit {
  readonly sha: string;
  readonly subject: string;
  /** The record hashes its Baton-Evidence trailers name. */
  readonly evidence: readonly string[];
}

/** Every commit on a local branch that carries a Baton-Evidence trailer (newest first). */
export async function anchoredCommits(root: string): Promise<AnchoredCommit[]> {
  const format = '%H%x1f%s%x1f%(trailers:key=Baton-Evidence,valueonly,separator=%x2c)%x1e';
  const { stdout } = await exec('git', ['log', '--branches', '--topo-order', `--format=${format}`], { cwd: root });
  return stdout
    .split('\x1e')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [sha = '', subject = '', trailers = ''] = entry.split('\x1f');
      return {
        sha,
        subject,
        evidence: trailers
          .split(',')
          .map((v) => v.trim())
          .filter((v) => /^[0-9a-f]{64}$/.test(v)),
      };
    })
    .filter((c) => c.evidence.length > 0);
}

/** The 12-hex prefix verify names a commit by. */
export const short = (sha: string): string => sha.slice(0, 12);
