/**
 * The scripted agent's scenario file: what each turn writes, deletes and runs.
 * `{"turns": [{"role": "navigator", "item": "T3", "attempt": 1, "write": {"path": "content"},
 * "delete": ["path"], "run": ["shell command"], "exitCode": 0}]}` plus, for the steps that are
 * not a role's default, `"step": "refactor" | "review" | "strengthen"` and a review's `"decision"` and `"note"`.
 */
import { z } from 'zod';
import { ROLES, type TurnStep } from './agent-port';

const insideWorktree = (p: string) => p.length > 0 && !p.startsWith('/') && !p.split(/[\\/]/).includes('..') && !p.includes('\0');
const INSIDE = 'must be a relative path inside the worktree';
const relativePath = z.string().refine(insideWorktree, INSIDE);
const writes = z.record(z.string(), z.string()).superRefine((files, ctx) => {
  for (const path of Object.keys(files)) if (!insideWorktree(path)) ctx.addIssue({ code: 'custom', path: [path], message: INSIDE });
});

export const turnSchema = z.strictObject({
  role: z.enum(ROLES),
  step: z.enum(['red', 'green', 'refactor', 'review', 'strengthen', 'artifact']).optional(),
  item: z.string().min(1).optional(),
  attempt: z.number().int().min(1).optional(),
  /** Only for this feature (its id): the demo's design turns answer the demo's request, never another feature's; absent: any feature. */
  feature: z.string().min(1).optional(),
  /** Only in this round of the item (a retry after an escalation starts round 2); absent: any round. */
  round: z.number().int().min(1).optional(),
  write: writes.optional(),
  delete: z.array(relativePath).optional(),
  run: z.array(z.string().min(1)).optional(),
  exitCode: z.number().int().min(0).max(255).optional(),
  decision: z.enum(['accept', 'refactor', 'smell']).optional(),
  note: z.string().optional(),
  /** What the agent "says" in its transcript; shown in the live panel. */
  say: z.string().optional(),
});
/** What the recorded run reached (`baton record-scenario` writes it), so `baton replay` can say whether a replay matches. */
export const figuresSchema = z.strictObject({
  feature: z.string().min(1),
  byStatus: z.record(z.string(), z.number().int().min(0)),
  repairs: z.number().int().min(0).nullable(),
  violations: z.number().int().min(0).nullable(),
  rejectedRed: z.number().int().min(0).nullable(),
  escalations: z.number().int().min(0),
});
export const scenarioSchema = z.strictObject({ description: z.string().optional(), recorded: figuresSchema.optional(), turns: z.array(turnSchema) });
export type ScriptedTurn = z.infer<typeof turnSchema>;
export type Scenario = z.infer<typeof scenarioSchema>;

export const DEFAULT_STEP: Readonly<Record<string, TurnStep>> = { navigator: 'red', driver: 'green' };

export function parseScenario(text: string, where: string): Scenario {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where} is not valid JSON (${(error as Error).message}). Fix the file and run again.`);
  }
  const parsed = scenarioSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${where}: ${issue.path.join('.') || '(top level)'} ${issue.message}. See docs/agents.md, "Scripted scenarios".`);
  }
  return parsed.data;
}

/**
 * The turn for a request, stateless so a resumed run replays the same turn: among turns of this
 * role, step, item and feature (an absent item or feature matches any) — those pinned to the request's round when the
 * scenario pins any for this role and item, else those naming no round — one with this exact attempt wins; otherwise
 * the attempt-th turn that names no attempt, in file order. None: the agent did nothing.
 */
export function matchTurn(
  scenario: Scenario,
  request: { role: string; step: TurnStep; item: string | null; attempt: number; round?: number; feature?: string | null },
): ScriptedTurn | null {
  const round = request.round ?? 1;
  const turns = scenario.turns.filter((t) => t.feature === undefined || t.feature === request.feature);
  const inRound = turns.filter((t) => t.round === round);
  // Turns pinned to this round win over turns for any round.
  const pool = inRound.some((t) => t.role === request.role && (t.item === undefined || t.item === request.item))
    ? inRound
    : turns.filter((t) => t.round === undefined);
  const candidates = pool.filter(
    (t) => t.role === request.role && (t.step ?? DEFAULT_STEP[t.role] ?? 'artifact') === request.step && (t.item === undefined || t.item === request.item),
  );
  return candidates.find((t) => t.attempt === request.attempt) ?? candidates.filter((t) => t.attempt === undefined)[request.attempt - 1] ?? null;
}
