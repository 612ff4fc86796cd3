/**
 * One enforced agent turn: snapshot the worktree, let the agent work, then judge what it did.
 * Locked files it changed are restored from the lock (violations); anything outside its role's
 * write scope is reverted. The agent's own account of the turn is kept as a transcript, nothing more.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentAdapter, Role, TurnResult, TurnStep } from '../../agents/agent-port';
import { revertChanges } from '../../agents/revert';
import { judgeScope, type ScopeRules } from '../../agents/scope';
import { diffTrees, type TreeChange } from '../../agents/tree-diff';
import { snapshotTree } from '../../agents/tree-snapshot';
import { checkLock, restoreLock, type Lock, type LockRules } from '../../runner/lock-set';

export interface EnforcedTurnRequest {
  readonly agent: AgentAdapter;
  readonly role: Role;
  readonly step: TurnStep;
  readonly item: string;
  readonly attempt: number;
  readonly round: number;
  readonly worktree: string;
  readonly failure: string | null;
  readonly prompt: string;
  readonly scope: ScopeRules;
  /** Set after LOCK: the turn's changes to locked files are violations. */
  readonly lock: { readonly lock: Lock; readonly rules: LockRules } | null;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly onOutput?: (chunk: string) => void;
}

export interface EnforcedTurn {
  readonly result: TurnResult;
  /** What the turn changed and kept. */
  readonly kept: readonly TreeChange[];
  /** Reverted: outside the role's write scope or protected. */
  readonly outOfScope: ReadonlyArray<{ readonly change: TreeChange; readonly why: string }>;
  /** Restored from the lock: the turn changed locked tests or runner configuration. */
  readonly violations: readonly TreeChange[];
  /** What the violating files held before they were restored (null: deleted), as evidence. */
  readonly tampered: ReadonlyArray<{ readonly path: string; readonly content: Buffer | null }>;
}

export async function enforcedTurn(request: EnforcedTurnRequest): Promise<EnforcedTurn> {
  const before = await snapshotTree(request.worktree, { content: true });
  const result = await request.agent.turn({
    role: request.role,
    step: request.step,
    item: request.item,
    attempt: request.attempt,
    round: request.round,
    worktree: request.worktree,
    prompt: request.prompt,
    failure: request.failure,
    env: request.env ?? {},
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.onOutput ? { onOutput: request.onOutput } : {}),
  });
  let violations: TreeChange[] = [];
  const tampered: Array<{ path: string; content: Buffer | null }> = [];
  if (request.lock) {
    violations = [...(await checkLock(request.worktree, request.lock.lock, request.lock.rules)).violations];
    for (const v of violations) tampered.push({ path: v.path, content: v.kind === 'deleted' ? null : await readFile(join(request.worktree, v.path)).catch(() => null) });
    await restoreLock(request.worktree, violations);
  }
  const changes = diffTrees(before, await snapshotTree(request.worktree));
  const judged = judgeScope(changes, request.scope);
  await revertChanges(request.worktree, judged.outOfScope.map((o) => o.change));
  return { result, kept: judged.inScope, outOfScope: judged.outOfScope, violations, tampered };
}

/** A readable account of a turn for the ledger: each change, and what was reverted and why. */
export function describeTurn(turn: EnforcedTurn): string {
  const line = (c: TreeChange) => (c.kind === 'renamed' ? `renamed ${c.from} → ${c.path}` : `${c.kind} ${c.path}`);
  return [
    ...turn.kept.map((c) => `kept      ${line(c)}`),
    ...turn.violations.map((c) => `VIOLATION ${line(c)} (locked: restored)`),
    ...turn.outOfScope.map((o) => `reverted  ${line(o.change)} (${o.why})`),
  ].join('\n') || '(no changes)';
}

export function changedPaths(changes: readonly TreeChange[]): string[] {
  return changes.map((c) => c.path);
}
