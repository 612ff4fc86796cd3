/**
 * How a promotion reaches the tier's branch. Locally: a merge commit made by Baton, moved onto the
 * tier (and undone, only if nobody moved it since, on a rollback). Through a pull request: with `gh` (GitHub's CLI) installed and a git remote, the feature
 * branch is pushed, a pull request into the tier is opened (or the open one reused), its checks are
 * waited for (`gh pr checks --watch`), and only then — after the tier database has been migrated and
 * verified — is it merged (`gh pr merge --merge`) and the local tier branch fast-forwarded to the
 * remote's. `promote.via`: `auto` (default: a pull request when gh and a remote are there, else a
 * local merge), `local`, or `pull-request` (refused, saying what is missing, without them).
 */
import { execFile } from 'node:child_process';
import { git } from './git';

/** What mergeLocally, undoMerge and the pull request need of the plan (promote.ts). */
interface MergePlan {
  readonly feature: string;
  readonly featureBranch: string;
  readonly featureCommit: string;
  readonly tier: string;
  readonly tierCommit: string;
  readonly mergeTree: string | null;
  readonly checkoutOnTier: boolean;
  readonly snapshot: { readonly database: string };
  /** The ledger's newest record when the merge is made (the promotion's intent): its `Baton-Evidence` trailer. */
  readonly evidence: string;
}

const BATON_AUTHOR = {
  GIT_AUTHOR_NAME: 'Baton',
  GIT_AUTHOR_EMAIL: 'orchestrator@baton.invalid',
  GIT_COMMITTER_NAME: 'Baton',
  GIT_COMMITTER_EMAIL: 'orchestrator@baton.invalid',
};

export const mergeMessage = (plan: MergePlan): string =>
  `Promote ${plan.feature}: merge ${plan.featureBranch} into ${plan.tier}\n\nBaton-Feature: ${plan.feature}\nBaton-Snapshot: ${plan.snapshot.database}\nBaton-Evidence: ${plan.evidence}`;

/** Baton's merge commit of the feature into the tier, the tier moved onto it (the checkout follows when on it). */
export async function mergeLocally(root: string, plan: MergePlan): Promise<string> {
  const commit = await git(root, ['commit-tree', plan.mergeTree!, '-p', plan.tierCommit, '-p', plan.featureCommit, '-m', mergeMessage(plan)], BATON_AUTHOR);
  if (plan.checkoutOnTier) await git(root, ['merge', '--ff-only', '--quiet', commit]);
  else await git(root, ['update-ref', `refs/heads/${plan.tier}`, commit, plan.tierCommit]);
  return commit;
}

/** The tier's branch back where it was (only if nobody moved it since); the checkout too when it is on the tier. */
export async function undoMerge(root: string, plan: Pick<MergePlan, 'tier' | 'tierCommit' | 'checkoutOnTier'>, mergeCommit: string): Promise<boolean> {
  try {
    const now = await git(root, ['rev-parse', `refs/heads/${plan.tier}`]);
    if (now !== mergeCommit) return now === plan.tierCommit;
    if (plan.checkoutOnTier) await git(root, ['reset', '--keep', '--quiet', plan.tierCommit]);
    else await git(root, ['update-ref', `refs/heads/${plan.tier}`, plan.tierCommit, mergeCommit]);
    return true;
  } catch {
    return false;
  }
}

export type PromoteVia = 'auto' | 'local' | 'pull-request';

export interface PullRequestRoute {
  readonly remote: string;
}

const DEFAULT_CHECKS_MINUTES = 60;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `gh` with arguments in `cwd`; never throws (a missing gh is code 127). */
export function gh(cwd: string, args: readonly string[], timeoutMs = 120_000, signal?: AbortSignal): Promise<Ran> {
  return new Promise((resolve) => {
    execFile('gh', [...args], { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, ...(signal ? { signal } : {}) }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code ?? 1) : 127) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** The route a promotion takes: a pull request on `remote`, or null for a local merge. */
export async function promoteRoute(root: string, via: PromoteVia | undefined): Promise<PullRequestRoute | null> {
  const wanted = via ?? 'auto';
  if (wanted === 'local') return null;
  const remotes = (await git(root, ['remote']).catch(() => '')).split('\n').filter(Boolean);
  const remote = remotes.includes('origin') ? 'origin' : (remotes[0] ?? null);
  const hasGh = (await gh(root, ['--version'], 10_000)).code === 0;
  if (remote && hasGh) return { remote };
  if (wanted === 'auto') return null;
  const missing = [hasGh ? null : '`gh` (GitHub CLI) is not installed or not on PATH', remote ? null : 'the repository has no git remote'].filter(Boolean);
  throw new Error(
    `promote.via is "pull-request" but ${missing.join(' and ')}. Install gh and run \`gh auth login\`, add a remote, or set promote.via to "local".`,
  );
}

/** Pushes the feature branch and opens a pull request into the tier (or finds the open one); returns its URL. */
export async function openPullRequest(
  root: string,
  route: PullRequestRoute,
  plan: { feature: string; featureBranch: string; tier: string },
  body: string,
): Promise<string> {
  await git(root, ['push', '--quiet', route.remote, `refs/heads/${plan.featureBranch}:refs/heads/${plan.featureBranch}`]);
  const open = await gh(root, ['pr', 'list', '--head', plan.featureBranch, '--base', plan.tier, '--state', 'open', '--json', 'url', '--jq', '.[0].url']);
  if (open.code === 0 && open.stdout.trim()) return open.stdout.trim();
  const title = `Promote ${plan.feature}: merge ${plan.featureBranch} into ${plan.tier}`;
  const made = await gh(root, ['pr', 'create', '--base', plan.tier, '--head', plan.featureBranch, '--title', title, '--body', body]);
  const url = made.stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (made.code !== 0 || !/^https?:\/\//.test(url)) throw new Error(`gh pr create failed (exit ${made.code}): ${(made.stderr || made.stdout).trim()}`);
  return url;
}

/** Waits for the pull request's checks; 'none' when the repository reports none. Throws, with gh's words, when one fails or time runs out. */
export async function waitForChecks(
  root: string,
  url: string,
  minutes: number | undefined,
  signal?: AbortSignal,
): Promise<{ checks: 'passed' | 'none'; output: string }> {
  const ran = await gh(root, ['pr', 'checks', url, '--watch', '--fail-fast', '--interval', '10'], (minutes ?? DEFAULT_CHECKS_MINUTES) * 60_000, signal);
  const output = `${ran.stdout}${ran.stderr}`;
  if (ran.code === 0) return { checks: 'passed', output };
  if (/no checks reported/i.test(output)) return { checks: 'none', output };
  throw new Error(`the checks of ${url} did not pass (gh pr checks exit ${ran.code}): ${output.trim().split('\n').slice(-5).join(' | ')}`);
}

/** Merges the pull request with a merge commit, then brings the local tier to the remote's; returns the tier's new commit. */
export async function mergePullRequest(
  root: string,
  route: PullRequestRoute,
  url: string,
  plan: { tier: string; tierCommit: string; checkoutOnTier: boolean },
): Promise<string> {
  const merged = await gh(root, ['pr', 'merge', url, '--merge']);
  if (merged.code !== 0) throw new Error(`gh pr merge failed (exit ${merged.code}): ${(merged.stderr || merged.stdout).trim()}`);
  await git(root, ['fetch', '--quiet', route.remote, `refs/heads/${plan.tier}`]);
  const head = await git(root, ['rev-parse', 'FETCH_HEAD']);
  if (plan.checkoutOnTier) await git(root, ['merge', '--ff-only', '--quiet', head]);
  else await git(root, ['update-ref', `refs/heads/${plan.tier}`, head, plan.tierCommit]);
  return head;
}
