/**
 * `baton verify --rerun`: does each GREEN still reproduce? Every item whose GREEN commit
 * (`cycle.greened`) is in the checked-out commit has its own tests (those its lock recorded failing
 * at RED, which GREEN made pass) run again, by Baton, on that
 * commit's clean tree, against a fresh embedded database with the tree's migrations — twice, the
 * second time in reverse file order, as in the cycle. A test that GREEN recorded as passing and that
 * fails, errors or is missing now is a problem: the evidence no longer describes the code. The
 * embedded database and the run folders are made in a temporary folder and removed afterwards;
 * nothing is written to the ledger.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerRecord, VerifyProblem } from '../../shared/ledger';
import { recordsOf, RECORD_TYPES, type TypedRecord } from '../../shared/records';
import { createProvider } from '../branches/providers';
import { Ledger } from '../ledger';
import { addWorktree, git, removeWorktree } from '../engine/git';
import { runTwice } from '../engine/test-run';
import { readSettings } from '../project/read-settings';
import { defaultConfigDir } from '../platform/config-dir';
import { packageRoot } from '../platform/package-root';

export interface RerunReport {
  /** The commit whose tree was run. */
  readonly commit: string;
  /** Items whose GREEN is in that commit, and the tests re-run for them. */
  readonly items: number;
  readonly tests: number;
  readonly problems: readonly VerifyProblem[];
}

const BATON_ROOT = packageRoot(import.meta.url);

const contains = (root: string, ancestor: string, commit: string): Promise<boolean> =>
  git(root, ['merge-base', '--is-ancestor', ancestor, commit]).then(
    () => true,
    () => false,
  );

/** The latest GREEN of each item whose commit is in `commit`. */
async function greensIn(root: string, records: readonly LedgerRecord[], commit: string) {
  const latest = new Map<string, TypedRecord<typeof RECORD_TYPES.cycleGreened>>();
  // A cycle.greened record is written only for a GREEN verdict (its `verdict` is that record's hash).
  for (const record of recordsOf(records, RECORD_TYPES.cycleGreened)) {
    latest.set(`${record.subject.feature}/${record.subject.item}`, record);
  }
  const inCommit = [];
  for (const record of latest.values()) if (await contains(root, record.data.commit, commit)) inCommit.push(record);
  return inCommit;
}

/**
 * The tests an item's GREEN made pass: those its lock recorded failing at RED (its own tests), as
 * GREEN saw them pass; all GREEN's passing tests when the lock names none.
 */
function ownTests(records: readonly LedgerRecord[], green: TypedRecord<typeof RECORD_TYPES.cycleGreened>): string[] {
  const lock = recordsOf(records, RECORD_TYPES.cycleLocked).find((r) => r.subject.cycle === green.subject.cycle);
  const failing = new Set((lock?.data.cases ?? []).filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => c.id));
  const own = green.data.passedTests.filter((test) => failing.has(test));
  return own.length ? own : [...green.data.passedTests];
}

export async function rerunGreens(root: string, artifactRoot: string, onOutput?: (text: string) => void): Promise<RerunReport> {
  const commit = await git(root, ['rev-parse', 'HEAD']);
  const { records } = await Ledger.forArtifactRoot(artifactRoot).read();
  const greens = await greensIn(root, records, commit);
  const tests = new Set(greens.flatMap((g) => ownTests(records, g)));
  if (greens.length === 0) return { commit, items: 0, tests: 0, problems: [] };
  const read = await readSettings(artifactRoot);
  if (!read.ok) return { commit, items: greens.length, tests: tests.size, problems: [{ file: '.baton/project.json', message: read.error.message }] };
  const settings = read.value.settings;
  const scratch = await mkdtemp(join(tmpdir(), 'baton-rerun-'));
  const worktree = join(scratch, 'tree');
  const provider = await createProvider('pglite', {
    settings: { ...settings, branches: { ...settings.branches, poolSize: 0 } },
    dataDir: join(scratch, 'data'),
  });
  try {
    await addWorktree(root, worktree, commit);
    await provider.ensureRoot('verify');
    const outcome = await runTwice({
      provider,
      parentDatabase: 'verify',
      settings,
      worktree,
      site: { dir: join(scratch, 'run'), scratch: join(scratch, 'run-scratch') },
      locked: [],
      hide: [defaultConfigDir(), BATON_ROOT],
      dependencies: join(root, 'node_modules'),
      ...(onOutput ? { onOutput } : {}),
    });
    const results = new Map<string, string>();
    for (const run of [outcome.run, outcome.second]) for (const c of run?.report.cases ?? []) if (results.get(c.id) !== 'failed') results.set(c.id, c.status);
    const problems: VerifyProblem[] = outcome.integrity.map((message) => ({
      file: settings.testCommand ?? 'testCommand',
      message: `the re-run cannot be trusted: ${message}`,
    }));
    for (const green of greens) {
      const broken = ownTests(records, green).filter((test) => results.get(test) !== 'passed');
      if (broken.length === 0) continue;
      problems.push({
        file: `${green.subject.feature}/${green.subject.item}`,
        seq: green.seq,
        message: `GREEN does not reproduce at ${commit.slice(0, 12)}: ${broken.map((t) => `"${t}" ${results.get(t) ?? 'missing'}`).join(', ')} (recorded passing at ${green.data.commit.slice(0, 12)}).`,
      });
    }
    return { commit, items: greens.length, tests: tests.size, problems };
  } finally {
    await removeWorktree(root, worktree).catch(() => undefined);
    await provider.close().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}
