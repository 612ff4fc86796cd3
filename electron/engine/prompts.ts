/** The instructions each role's turn receives. Scripted agents ignore them; real agent CLIs read them. */
import type { TurnStep } from '../agents/agent-port';
import type { StepInput } from '../orchestrator/cycle-types';

const TEXT: Record<string, string> = {
  'navigator:red': 'Write the smallest failing test for test-list item {item}. Write only test files. Do not write production code.',
  'driver:green': 'Make the locked tests for {item} pass with the smallest change to source and migrations. Tests are locked: changing them is a violation.',
  'driver:refactor': 'Improve the structure of the code for {item} without changing behaviour. Tests are locked and must stay green.',
  'navigator:review': 'Review the diff of the cycle for {item}: accept, ask for one more refactor, or flag a smell.',
};

export function promptFor(role: string, step: TurnStep, input: StepInput): string {
  const base = (TEXT[`${role}:${step}`] ?? `Do your part for {item} (${step}).`).replace('{item}', input.item);
  const guided = input.guidance
    ? `${base}\n\nThis is round ${input.round} of ${input.item}: the last round escalated and a person asked for another try. Their note:\n${input.guidance}`
    : base;
  return input.failure ? `${guided}\n\nThe last run failed:\n${input.failure}` : guided;
}
