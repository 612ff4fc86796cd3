/**
 * What each step of a cycle reports back to the cycle machine. The machine decides what runs next
 * from these verdicts only; the steps themselves (agent turns, test runs, commits) live behind
 * ports and are provided when the machine starts.
 */

export interface CycleInput {
  readonly feature: string;
  readonly story: string;
  readonly item: string;
  /** Repair rounds allowed after the first GREEN attempt (`repairBudget` in project.json). */
  readonly repairBudget: number;
  /** 1 for the item's first cycle; a person's `retry` of an escalation starts the next round. Default 1. */
  readonly round?: number;
  /** The person's note with a `retry`, passed to the agents' prompts. */
  readonly guidance?: string | null;
  /** An amendment round: the approved `test.amendment` whose tests the orchestrator writes in place of the Navigator's RED turn. */
  readonly amendment?: string | null;
}

/** Why a Navigator turn is not a RED. */
export type NotRed =
  /** The new or changed test passed at once: it does not test anything new. */
  | 'passed-at-once'
  /** The suite did not load (syntax, import, collection): a test that cannot run did not fail for the right reason. */
  | 'load-error'
  /** A test that passed before now fails. */
  | 'regressed'
  /** The Navigator changed no test. */
  | 'no-test'
  /** The orchestrator's run of the tests could not be trusted (forged report, canary, killed runner, …). */
  | 'compromised'
  /** The tests did not fail the same way on two runs. */
  | 'flaky';

export type RedOutcome = { readonly verdict: 'red'; readonly record: string } | { readonly verdict: NotRed; readonly record: string; readonly detail: string };

export interface GreenOutcome {
  readonly verdict: 'green' | 'failing';
  /** Locked files the Driver changed this turn (already reverted from the locked blobs and recorded). */
  readonly violations: number;
  /** The ledger record of the verdict (for GREEN, the commit's `Baton-Evidence` trailer). */
  readonly record: string;
  /** The runner's failure output, sent to the Driver in the next repair round. */
  readonly failure: string | null;
  /** Set when no repair can help (the suite is flaky): the cycle escalates with this reason. */
  readonly escalate?: string | null;
  /**
   * Set when the attempt was refused for code that tells a test run apart (issue 30): which, and how
   * a person allows it. A repair round may remove it; once none is left, the escalation says this.
   */
  readonly tells?: string | null;
}

export interface RefactorOutcome {
  /** `reverted`: the suite went red (or the lock was touched), so the refactor was undone. */
  readonly verdict: 'kept' | 'reverted';
  readonly record: string;
}

export interface ReviewOutcome {
  readonly decision: 'accept' | 'refactor' | 'smell';
  readonly note: string | null;
  readonly record: string;
}

/** Each step gets the cycle's input and an attempt number: with the step name it is the step's idempotency key. */
export interface StepInput extends CycleInput {
  readonly round: number;
  readonly guidance: string | null;
  readonly amendment?: string | null;
  readonly attempt: number;
  /** For a repair round: the previous GREEN run's failure output. */
  readonly failure: string | null;
}

export type CycleStatus = 'done' | 'escalated';

export interface CycleOutput {
  readonly item: string;
  readonly status: CycleStatus;
  readonly repairs: number;
  readonly violations: number;
  readonly rejectedRed: number;
  readonly refactors: number;
  readonly smell: string | null;
  readonly reason: string | null;
  readonly greenRecord: string | null;
}
