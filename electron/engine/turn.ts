/**
 * One enforced agent turn: snapshot the worktree, let the agent work, then judge what it did.
 * Locked files it changed are restored from the lock (violations); anything outside its role's
 * write scope is reverted. The agent's own account of the turn is kept as a transcript, nothing more.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentAdapter, ContextPack, Role, TurnResult, TurnStep } from '../agents/agent-port';
import { revertChanges } from '../platform/revert';
import { judgeScope, type ScopeRules } from '../agents/scope';
import { diffTrees, type TreeChange } from '../platform/tree-diff';
import { snapshotTree } from '../platform/tree-snapshot';
import { checkLock, restoreLock, type Lock, type LockRules } from '../runner/lock-set';
import { tellsIn, type Tell } from '../agents/test-detection';

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
  /** What the role is given for this turn (kept with the turn as evidence). */
  readonly context?: ContextPack;
  readonly scope: ScopeRules;
  /**
   * The turn's changes to locked files are violations: the cycle's own lock after LOCK, every
   * earlier item's at RED (where `newTests` lets the Navigator add test files, never change one).
   */
  readonly lock: { readonly lock: Lock; readonly rules: LockRules; readonly newTests?: boolean } | null;
  /** The migrations folder: a migration that touches Baton's own bookkeeping is a violation. */
  readonly migrations?: string | null;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly onOutput?: (chunk: string) => void;
}

export interface EnforcedTurn {
  readonly result: TurnResult;
  readonly prompt: string;
  readonly context: ContextPack | null;
  /** What the turn changed and kept. */
  readonly kept: readonly TreeChange[];
  /** Reverted: outside the role's write scope or protected. */
  readonly outOfScope: ReadonlyArray<{ readonly change: TreeChange; readonly why: string }>;
  /** Restored from the lock: the turn changed locked tests or runner configuration. */
  readonly violations: readonly TreeChange[];
  /** What the violating files held before they were restored (null: deleted), as evidence. */
  readonly tampered: ReadonlyArray<{ readonly path: string; readonly content: Buffer | null }>;
  /**
   * Tells this Driver turn brought into the files it changed (test-detection.ts), for the turn's account;
   * GREEN and REFACTOR judge the step's code as a whole against the branch (engine/cycle-tells.ts).
   */
  readonly tells: readonly Tell[];
}

/** Baton's own database objects (`baton_migrations`): a migration that names them is a violation. */
const BATON_OBJECTS = /\bbaton_\w+/i;

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
    ...(request.context ? { context: request.context } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.onOutput ? { onOutput: request.onOutput } : {}),
  });
  let violations: TreeChange[] = [];
  const tampered: Array<{ path: string; content: Buffer | null }> = [];
  if (request.lock) {
    const found = (await checkLock(request.worktree, request.lock.lock, request.lock.rules)).violations;
    violations = request.lock.newTests ? found.filter((v) => v.kind !== 'added') : [...found];
    for (const v of violations)
      tampered.push({ path: v.path, content: v.kind === 'deleted' ? null : await readFile(join(request.worktree, v.path)).catch(() => null) });
    await restoreLock(request.worktree, violations);
  }
  const changes = diffTrees(before, await snapshotTree(request.worktree, { content: true }));
  const judged = judgeScope(changes, request.scope);
  // A migration that touches Baton's bookkeeping (baton_migrations) could make an applied file run again, or hide one.
  const folder = request.migrations ? `${request.migrations.replace(/\/+$/, '')}/` : null;
  const bookkeeping = folder
    ? judged.inScope.filter((c) => c.kind !== 'deleted' && c.path.startsWith(folder) && BATON_OBJECTS.test(textOf(c.after.content)))
    : [];
  for (const c of bookkeeping) tampered.push({ path: c.path, content: c.kind === 'deleted' ? null : (c.after.content ?? null) });
  await revertChanges(request.worktree, [...judged.outOfScope.map((o) => o.change), ...bookkeeping]);
  const kept = judged.inScope.filter((c) => !bookkeeping.includes(c));
  const tells =
    request.role === 'driver'
      ? kept.flatMap((c) =>
          c.kind === 'deleted' || c.after.symlink !== null
            ? []
            : tellsIn(c.path, c.kind === 'added' ? null : textOf(before.get(c.kind === 'renamed' ? c.from : c.path)?.content), textOf(c.after.content)),
        )
      : [];
  return {
    result,
    prompt: request.prompt,
    context: request.context ?? null,
    kept,
    outOfScope: judged.outOfScope,
    violations: [...violations, ...bookkeeping],
    tampered,
    tells,
  };
}

const textOf = (content: Buffer | undefined): string => (content ? content.toString('utf8') : '');

/** A readable account of a turn for the ledger: each change, and what was reverted and why. */
export function describeTurn(turn: EnforcedTurn): string {
  const line = (c: TreeChange) => (c.kind === 'renamed' ? `renamed ${c.from} → ${c.path}` : `${c.kind} ${c.path}`);
  return (
    [
      ...turn.kept.map((c) => `kept      ${line(c)}`),
      ...turn.violations.map((c) => `VIOLATION ${line(c)} (locked, or Baton's bookkeeping: restored)`),
      ...turn.tells.map((t) => `FLAG      ${t.file}:${t.line} ${t.why}: ${t.text}`),
      ...turn.outOfScope.map((o) => `reverted  ${line(o.change)} (${o.why})`),
    ].join('\n') || '(no changes)'
  );
}
