/**
 * Git as a second witness of the ledger. Every commit the orchestrator makes carries a
 * `Baton-Evidence: <record hash>` trailer naming the ledger record that justified it (a RED lock, a
 * GREEN verdict, an escalation's revert), or, for a story merge and the promote merge, the newest
 * record when it was made (so the approvals before it are anchored too). A ledger cut short, emptied, deleted or rechained after
 * an edit no longer holds those records, so `verify` reads every trailer on every local branch and
 * reports each commit whose record is gone, and any two commits whose records are in the opposite
 * order to the commits themselves (the ledger was reordered or rewritten).
 *
 * What this cannot see: records after the newest anchored commit (`promote.done`, decisions made since), and
 * a history rewritten in git as well. Signed checkpoints (checkpoints.ts) cover the first.
 */
import { featureBranch } from '../../shared/branches';
import type { LedgerRecord, VerifyProblem } from '../../shared/ledger';
import { foldGates, gateKey } from '../gates/state';
import { git } from '../platform/git';

/** The gates a feature's build waits for: commits built for it mean each was approved once. */
const BUILT_AFTER = ['spec', 'design', 'test_list'] as const;

const FIELD = '\x1f';
const RECORD_END = '\x1e';
const SHA256 = /^[0-9a-f]{64}$/;
/** Past this many missing records, one summary line stands for the rest. */
const LISTED = 10;

interface AnchoredCommit {
  readonly commit: string;
  readonly parents: readonly string[];
  readonly subject: string;
  readonly evidence: readonly string[];
}

/** Every commit on a local branch, with its parents and its Baton-Evidence trailers (newest first). */
const readCommits = async (root: string): Promise<AnchoredCommit[] | null> => {
  const inRepo = await git(root, ['rev-parse', '--is-inside-work-tree']).then(
    (out) => out === 'true',
    () => false,
  );
  if (!inRepo) return null;
  const hasBranch = await git(root, ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads']).catch(() => '');
  if (hasBranch === '') return [];
  const format = ['%H', '%P', '%s', '%(trailers:key=Baton-Evidence,valueonly,separator=%x2c)'].join('%x1f') + '%x1e';
  const out = await git(root, ['log', '--branches', '--topo-order', `--format=${format}`]);
  return out
    .split(RECORD_END)
    .map((entry) => entry.replace(/^\n/, ''))
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [commit = '', parents = '', subject = '', trailers = ''] = entry.split(FIELD);
      const evidence = trailers
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      return { commit, parents: parents.split(' ').filter(Boolean), subject, evidence };
    });
};

const short = (text: string) => text.slice(0, 12);
const named = (c: AnchoredCommit) => `commit ${short(c.commit)} ("${c.subject.length > 60 ? `${c.subject.slice(0, 57)}…` : c.subject}")`;

/**
 * The problems git's trailers show in `records`. `ledgerFile` is how problems name events.jsonl.
 * A folder that is not a git repository has no anchors (a review bundle): nothing to report.
 */
export async function gitAnchorProblems(root: string, records: readonly LedgerRecord[], ledgerFile: string): Promise<VerifyProblem[]> {
  const commits = await readCommits(root);
  if (commits === null) return [];
  const seqOf = new Map(records.map((r) => [r.hash, r.seq]));
  const problems: VerifyProblem[] = [];
  const missing: { commit: AnchoredCommit; hash: string }[] = [];
  for (const commit of commits) {
    for (const hash of commit.evidence) {
      if (!SHA256.test(hash)) {
        problems.push({ file: ledgerFile, message: `${named(commit)} has a Baton-Evidence trailer that is not a record hash ("${hash.slice(0, 80)}")` });
      } else if (!seqOf.has(hash)) missing.push({ commit, hash });
    }
  }
  if (missing.length > 0) {
    const whole =
      records.length === 0 ? `the ledger has no records, but ${missing.length} commit trailer${missing.length === 1 ? ' names' : 's name'} evidence` : null;
    if (whole)
      problems.push({
        file: ledgerFile,
        message: `${whole}: the ledger was emptied or deleted after those commits. Restore .baton/ledger from a backup or a review bundle.`,
      });
    for (const { commit, hash } of missing.slice(0, whole ? 3 : LISTED)) {
      problems.push({
        file: ledgerFile,
        message:
          `${named(commit)} names evidence record ${short(hash)}…, which the ledger does not hold: the ledger is shorter than its git history, ` +
          'or its records were rewritten after this commit. Restore .baton/ledger from a backup or a review bundle; decisions after the damage cannot be trusted.',
      });
    }
    const rest = missing.length - (whole ? 3 : LISTED);
    if (rest > 0)
      problems.push({ file: ledgerFile, message: `…and ${rest} more commit${rest === 1 ? '' : 's'} whose evidence record the ledger does not hold.` });
  }
  problems.push(...orderProblems(commits, seqOf, ledgerFile));
  return problems;
}

/**
 * A commit is made after the record it names, so the records its anchored ancestors name must come
 * first in the ledger. A record out of that order means records were moved or rewritten.
 */
const orderProblems = (commits: readonly AnchoredCommit[], seqOf: ReadonlyMap<string, number>, ledgerFile: string): VerifyProblem[] => {
  const byId = new Map(commits.map((c) => [c.commit, c]));
  const seqs = (c: AnchoredCommit) => c.evidence.map((h) => seqOf.get(h)).filter((s): s is number => s !== undefined);
  // The highest seq named by the nearest anchored ancestors of each commit (memoised, oldest first).
  const below = new Map<string, { seq: number; commit: AnchoredCommit } | null>();
  const problems: VerifyProblem[] = [];
  for (const commit of [...commits].reverse()) {
    let best: { seq: number; commit: AnchoredCommit } | null = null;
    for (const parent of commit.parents) {
      const p = byId.get(parent);
      if (!p) continue;
      const own = seqs(p);
      const candidate = own.length > 0 ? { seq: Math.max(...own), commit: p } : (below.get(parent) ?? null);
      if (candidate && (!best || candidate.seq > best.seq)) best = candidate;
    }
    below.set(commit.commit, best);
    const own = seqs(commit);
    if (best && own.length > 0 && Math.min(...own) <= best.seq) {
      problems.push({
        file: ledgerFile,
        seq: Math.min(...own),
        message: `${named(commit)} comes after ${named(best.commit)} in git, but its evidence record #${Math.min(...own)} is not after #${best.seq} in the ledger: records were reordered or rewritten`,
      });
    }
  }
  return problems;
};

/**
 * A gate the ledger holds no decision for, on a feature the orchestrator has built commits for:
 * the build only starts once spec, design and test_list are approved, so their approval records
 * were removed. Reported, never shown as a gate silently "open". (A gate withdrawn or reopened
 * after the build has records, and is not reported.)
 */
export async function missingApprovalProblems(
  root: string,
  features: readonly string[],
  records: readonly LedgerRecord[],
  ledgerFile: string,
): Promise<VerifyProblem[]> {
  const folds = foldGates(records);
  const undecidedOf = new Map(features.map((feature) => [feature, BUILT_AFTER.filter((gate) => !folds.has(gateKey({ feature, gate })))]));
  if (![...undecidedOf.values()].some((gates) => gates.length > 0)) return [];
  const refs = await git(root, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/baton/']).catch(() => '');
  const branches = refs.split('\n').filter(Boolean);
  if (branches.length === 0) return [];
  const problems: VerifyProblem[] = [];
  for (const feature of features) {
    const prefix = featureBranch(feature);
    const undecided = undecidedOf.get(feature) ?? [];
    if (undecided.length === 0) continue;
    const own = branches.filter((b) => b === prefix || b.startsWith(`${prefix}--`));
    const built: { branch: string; commit: string }[] = [];
    for (const branch of own) {
      const commit = await git(root, ['log', '-1', '--format=%H %s', '--grep=^Baton-Evidence: ', branch]).catch(() => '');
      if (commit) built.push({ branch, commit });
    }
    const first = built[0];
    if (!first) continue;
    for (const gate of undecided) {
      problems.push({
        file: ledgerFile,
        message:
          `the ${gate} gate of ${feature} has no decision in the ledger, but ${first.branch} holds commits the orchestrator built for it ` +
          `(${short(first.commit)} "${first.commit.slice(41)}"), which it only does after that gate is approved: its approval record is missing. ` +
          'Restore .baton/ledger from a backup or a review bundle.',
      });
    }
  }
  return problems;
}
