/**
 * An enforced turn with what a real agent needs around it: its own database branch when the
 * agent asks for one (DATABASE_URL), dropped when the turn ends, and the blobs that keep the turn
 * as evidence — the transcript, the context pack and the prompt it got.
 */
import type { Role, TurnStep } from '../agents/agent-port';
import type { StepInput } from '../orchestrator/cycle-types';
import type { CycleDeps } from './cycle-deps';
import type { Blob } from './records';
import { turnDatabase } from './test-run';
import { enforcedTurn, type EnforcedTurn, type EnforcedTurnRequest } from './turn';

type TurnPart = Omit<EnforcedTurnRequest, 'agent' | 'item' | 'attempt' | 'round' | 'env' | 'signal' | 'onOutput' | 'role' | 'step'> & {
  readonly role: Role;
  readonly step: TurnStep;
};

export async function agentTurn(deps: CycleDeps, input: StepInput, database: string, part: TurnPart): Promise<EnforcedTurn> {
  // Lanes built at once: no other lane's test run is under way while an agent has the network.
  return deps.gate ? deps.gate.turn(() => turnOnce(deps, input, database, part)) : turnOnce(deps, input, database, part);
}

async function turnOnce(deps: CycleDeps, input: StepInput, database: string, part: TurnPart): Promise<EnforcedTurn> {
  const agent = deps.agent(part.role);
  const emit = (chunk: string) => deps.emit({ kind: 'turn.output', item: input.item, chunk });
  const branch = agent.needsDatabase ? await turnDatabase(deps.provider, database, part.worktree, deps.settings, deps.signal) : null;
  if (branch?.note) emit(`[baton] ${branch.note}\n`);
  try {
    return await enforcedTurn({
      ...part,
      agent,
      item: input.item,
      attempt: input.attempt,
      round: input.round,
      env: branch?.env ?? {},
      ...(deps.signal ? { signal: deps.signal } : {}),
      onOutput: emit,
    });
  } finally {
    await branch?.drop();
  }
}

/** The turn as evidence: what the agent said, and exactly what it was given. */
export function turnBlobs(turn: EnforcedTurn): Blob[] {
  return [
    { name: 'agent/transcript.txt', content: turn.result.transcript },
    ...(turn.context ? [{ name: 'agent/context.json', content: `${JSON.stringify(turn.context, null, 2)}\n` }] : []),
    { name: 'agent/prompt.md', content: turn.prompt },
    ...(turn.result.usage ? [{ name: 'agent/usage.json', content: `${JSON.stringify(turn.result.usage, null, 2)}\n` }] : []),
  ];
}
