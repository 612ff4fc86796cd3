/**
 * One ledger record as a line of the story dossier (shared/dossier.ts): who did it (a person, the
 * orchestrator, or an agent's role with its host and model when it reported them), what happened in
 * words, a verdict word (status is never colour alone), the test run behind a verdict, and the
 * tokens and cost of the turn. Every record type is read through the catalogue's typed accessors.
 * Record text is agent-written: it is kept as data here, and escaped by whoever renders it. Pure.
 */
import type { LedgerRecord } from './ledger';
import { RECORD_TYPES, recordOf, type StepFields } from './records';
import { turnOf } from './metrics/turns';

export type Tone = 'good' | 'bad' | 'warn' | 'info';

export interface DossierRun {
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  readonly skipped: number;
  /** The orchestrator's test run time (`testRunMs`, else `runMs`); null when not recorded. */
  readonly ms: number | null;
}

export interface DossierEntry {
  readonly seq: number;
  readonly hash: string;
  readonly at: string;
  readonly type: string;
  /** `person`, `agent` or `orchestrator`; an agent's turn recorded by the orchestrator is the agent's. */
  readonly whoKind: 'person' | 'agent' | 'orchestrator';
  /** `Navigator`, `Ada <ada@example.com>`, `Orchestrator`. */
  readonly who: string;
  /** The agent's host and model (`claude-code / claude-sonnet-4`), when it reported them. */
  readonly agent: string | null;
  readonly says: string;
  /** One word for the outcome (`RED`, `GREEN`, `approved`, `violation`); null for a plain event. */
  readonly verdict: string | null;
  readonly tone: Tone;
  readonly run: DossierRun | null;
  readonly usage: { readonly inputTokens: number | null; readonly outputTokens: number | null; readonly costUsd: number | null } | null;
}

const ROLE_NAMES: Readonly<Record<string, string>> = {
  navigator: 'Navigator',
  driver: 'Driver',
  specAuthor: 'Spec Author',
  architectReviewer: 'Architect Reviewer',
  dba: 'DBA',
  uxDesigner: 'UX Designer',
  testStrategist: 'Test Strategist',
};
export const roleName = (role: string): string => ROLE_NAMES[role] ?? role;

type Said = Pick<DossierEntry, 'says' | 'verdict' | 'tone'>;
const said = (says: string, verdict: string | null = null, tone: Tone = 'info'): Said => ({ says, verdict, tone });
const note = (text: string | null | undefined, lead = ': '): string => (text ? `${lead}${text}` : '');
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const short = (sha: string): string => sha.slice(0, 12);

function runOf(d: StepFields): DossierRun | null {
  if (!d.totals) return null;
  return { ...d.totals, ms: d.testRunMs ?? d.runMs ?? null };
}

/** The test run behind a verdict record (RED, GREEN, refactor), or null. */
function runOfRecord(r: LedgerRecord): DossierRun | null {
  const d = recordOf(r, RECORD_TYPES.cycleRed)?.data ?? recordOf(r, RECORD_TYPES.cycleGreen)?.data ?? recordOf(r, RECORD_TYPES.cycleRefactored)?.data;
  return d ? runOf(d) : null;
}

/** The cycle's records: each step's verdict, the lock, violations, the end. */
function cycleWords(r: LedgerRecord): Said | null {
  const planned = recordOf(r, RECORD_TYPES.cyclePlanned);
  if (planned) return said(`Planned the cycle on experiment ${planned.data.experiment} (database ${planned.data.database})`);
  const red = recordOf(r, RECORD_TYPES.cycleRed);
  if (red) {
    const d = red.data;
    return d.verdict === 'red'
      ? said(`Wrote a failing test; the orchestrator's run made it RED${note(d.detail)}`, 'RED', 'good')
      : said(`Wrote a test the orchestrator did not accept as RED (${d.verdict})${note(d.detail)}`, 'not RED', 'bad');
  }
  const locked = recordOf(r, RECORD_TYPES.cycleLocked);
  if (locked) return said(`Locked ${plural(locked.data.files.length, 'test file')} and the test command \`${locked.data.testCommand}\` by hash`, 'locked');
  const green = recordOf(r, RECORD_TYPES.cycleGreen);
  if (green) {
    const d = green.data;
    const round = d.attempt > 1 ? `Repair ${d.attempt - 1}: ` : '';
    if (d.verdict === 'green') return said(`${round}Wrote the code; the orchestrator's run made every test pass${note(d.detail)}`, 'GREEN', 'good');
    return said(`${round}Wrote code that did not pass (${d.verdict})${note(d.failure ?? d.detail)}${note(d.escalate, '; escalates: ')}`, 'not green', 'bad');
  }
  const greened = recordOf(r, RECORD_TYPES.cycleGreened);
  if (greened) return said(`Committed the GREEN tree as ${short(greened.data.commit)} on ${greened.data.branch}`, 'committed', 'good');
  const violation = recordOf(r, RECORD_TYPES.cycleViolation);
  if (violation) {
    const d = violation.data;
    const files = d.files.map((f) => f.path).join(', ') || 'no file named';
    return said(`Violation in ${d.step} (attempt ${d.attempt}): changed ${files} against ${d.against}; reverted${note(d.detail, ' — ')}`, 'violation', 'bad');
  }
  const refactored = recordOf(r, RECORD_TYPES.cycleRefactored);
  if (refactored) {
    const kept = refactored.data.verdict === 'kept';
    return said(
      `Refactored; ${kept ? 'the tests stayed green and the change was kept' : 'the change was reverted'}${note(refactored.data.detail)}`,
      refactored.data.verdict,
      kept ? 'good' : 'warn',
    );
  }
  const reviewed = recordOf(r, RECORD_TYPES.cycleReviewed);
  if (reviewed) {
    const d = reviewed.data;
    const words = { accept: 'accepted the change', refactor: 'asked for one more refactor', smell: 'flagged a smell' }[d.decision];
    return said(`Reviewed the diff and ${words}${note(d.note)}`, d.decision, d.decision === 'accept' ? 'good' : 'warn');
  }
  return null;
}

/** An item's other records: packages, mutation, the end, its status, escalations and amendments. */
function itemWords(r: LedgerRecord): Said | null {
  const deps = recordOf(r, RECORD_TYPES.cycleDependencies);
  if (deps) {
    const d = deps.data;
    const installed = d.installed.map((p) => `${p.name}@${p.version}`).join(', ') || 'none';
    const refused = d.refused.length ? `; refused ${d.refused.map((p) => `${p.line} (${p.why})`).join(', ')}` : '';
    return said(`Asked for packages in ${d.step}; installed ${installed}${refused}`, null, d.refused.length ? 'warn' : 'info');
  }
  const mutated = recordOf(r, RECORD_TYPES.cycleMutated);
  if (mutated) {
    const d = mutated.data;
    const score = d.score === null ? 'no score' : `${Math.round(d.score * 100)}%`;
    const weak = d.score !== null && d.score < d.minScore;
    return said(
      `Mutation testing: the tests killed ${d.killed} of ${d.tested} mutants (${score}, minimum ${Math.round(d.minScore * 100)}%); ${d.survived.length} survived`,
      weak ? 'weak' : 'strong',
      weak ? 'warn' : 'good',
    );
  }
  const finished = recordOf(r, RECORD_TYPES.cycleFinished);
  if (finished) {
    const d = finished.data;
    const counts = [d.repairs !== undefined ? plural(d.repairs, 'repair') : null, d.violations !== undefined ? plural(d.violations, 'violation') : null]
      .filter(Boolean)
      .join(', ');
    const tone: Tone = d.status === 'done' ? 'good' : d.status === 'escalated' ? 'bad' : 'info';
    return said(`The cycle ended ${d.status ?? 'without a status'}${counts ? ` (${counts})` : ''}${note(d.reason)}`, d.status ?? null, tone);
  }
  const status = recordOf(r, RECORD_TYPES.itemStatus);
  if (status) {
    const now = status.data.status;
    const tone: Tone = now === 'green' || now === 'refactored' ? 'good' : now === 'escalated' ? 'bad' : 'info';
    return said(`The item's status became ${now}`, now, tone);
  }
  const decided = recordOf(r, RECORD_TYPES.escalationDecided);
  if (decided) return said(`Decided the escalation: ${decided.data.decision}${note(decided.data.note, ' — ')}`, decided.data.decision, 'warn');
  const amendment = recordOf(r, RECORD_TYPES.testAmendment);
  if (amendment) return said(`Proposed a test amendment of ${plural(amendment.data.files.length, 'file')}: ${amendment.data.reason}`, 'amendment', 'warn');
  const amended = recordOf(r, RECORD_TYPES.amendmentDecided);
  if (amended)
    return said(
      `Test amendment ${amended.data.decision}${note(amended.data.note, ' — ')}`,
      amended.data.decision,
      amended.data.decision === 'approved' ? 'good' : 'bad',
    );
  const tells = recordOf(r, RECORD_TYPES.tellsAllowed);
  if (tells) return said(`Allowed ${plural(tells.data.tells.length, 'tell')}: ${tells.data.reason}`, 'allowed', 'warn');
  return null;
}

/** Gate decisions and the feature's and story's own records. */
function decisionWords(r: LedgerRecord): Said | null {
  const gate = (g: string | undefined) => `the ${r.subject.gate ?? g ?? 'unknown'} gate`;
  const approved = recordOf(r, RECORD_TYPES.gateApproved);
  if (approved) {
    const d = approved.data;
    const exceptions = d.exceptions?.length
      ? `; with exceptions: ${d.exceptions.map((e) => `${e.ac} (${e.why})`).join(', ')}${note(d.exceptionReason, ' — ')}`
      : '';
    const files = Object.keys(d.artifacts).length;
    return said(`Approved ${gate(d.gate)} over ${plural(files, 'artifact')} by hash${exceptions}${note(d.comment, ' — ')}`, 'approved', 'good');
  }
  const rejected = recordOf(r, RECORD_TYPES.gateRejected);
  if (rejected)
    return said(`Rejected ${gate(rejected.data.gate)}${rejected.data.discard ? ' to drop the story' : ''}: ${rejected.data.reason}`, 'rejected', 'bad');
  const withdrawn = recordOf(r, RECORD_TYPES.gateWithdrawn);
  if (withdrawn) return said(`Withdrew the approval of ${gate(withdrawn.data.gate)}: ${withdrawn.data.reason}`, 'withdrawn', 'warn');
  const revising = recordOf(r, RECORD_TYPES.gateRevising);
  if (revising)
    return said(`Took up the rejection of ${gate(revising.data.gate)}; items run again: ${revising.data.items.join(', ') || 'none'}`, 'revising', 'warn');
  const restored = recordOf(r, RECORD_TYPES.gateRestored);
  if (restored) return said(`Restored ${plural(restored.data.restored.length, 'approved file')} of ${gate(restored.data.gate)}`, 'restored');
  const escalated = recordOf(r, RECORD_TYPES.designEscalated);
  if (escalated)
    return said(
      `The ${roleName(escalated.data.role)}'s ${escalated.data.gate} artifact was refused ${escalated.data.attempts} times: ${escalated.data.problems.join('; ')}`,
      'escalated',
      'bad',
    );
  const design = recordOf(r, RECORD_TYPES.designTurn);
  if (design) {
    const d = design.data;
    return d.outcome === 'written'
      ? said(`Wrote the ${d.gate} artifacts (${Object.keys(d.files).join(', ') || 'none'})`, 'written', 'good')
      : said(`Its ${d.gate} artifacts were refused: ${d.problems.join('; ')}`, 'refused', 'bad');
  }
  const requested = recordOf(r, RECORD_TYPES.featureRequested);
  if (requested) return said(`Requested the feature "${requested.data.title}"`, 'requested');
  const merged = recordOf(r, RECORD_TYPES.storyMerged);
  if (merged) return said(`Merged the story's experiment ${merged.data.experiment} into ${merged.data.into} (${short(merged.data.merge)})`, 'merged', 'good');
  const discarded = recordOf(r, RECORD_TYPES.storyDiscarded);
  if (discarded)
    return said(`Dropped the story; items set aside: ${discarded.data.items.join(', ') || 'none'}${note(discarded.data.note, ' — ')}`, 'discarded', 'warn');
  const verified = recordOf(r, RECORD_TYPES.featureVerified);
  if (verified) {
    const passed = verified.data.verdict === 'passed';
    return said(
      `Ran the merged feature's whole suite: ${verified.data.verdict}${passed ? '' : `; failing ${verified.data.failing.map((f) => f.test).join(', ')}`}`,
      verified.data.verdict,
      passed ? 'good' : 'bad',
    );
  }
  const deployed = recordOf(r, RECORD_TYPES.deployRan);
  if (deployed) {
    const ok = deployed.data.healthy && deployed.data.verifyPassed;
    return said(
      `Deployed ${short(deployed.data.commit)} to ${deployed.data.target}: ${ok ? 'healthy, verified' : 'not healthy or not verified'}`,
      ok ? 'deployed' : 'failed',
      ok ? 'good' : 'bad',
    );
  }
  const promoted = recordOf(r, RECORD_TYPES.promoteDone);
  if (promoted) return said(`Promoted to ${promoted.data.tier} (${short(promoted.data.mergeCommit)})`, 'promoted', 'good');
  const rolledBack = recordOf(r, RECORD_TYPES.promoteRolledBack);
  if (rolledBack) return said(`Rolled back the promotion to ${rolledBack.data.tier}: ${rolledBack.data.error}`, 'rolled back', 'bad');
  const blocked = recordOf(r, RECORD_TYPES.runBlocked);
  if (blocked) return said(`The run stopped: ${blocked.data.message}`, 'blocked', 'bad');
  return null;
}

const who = (r: LedgerRecord): Pick<DossierEntry, 'whoKind' | 'who' | 'agent'> => {
  const turn = turnOf(r);
  if (turn) return { whoKind: 'agent', who: roleName(turn.role), agent: turn.agent ? `${turn.agent.host} / ${turn.agent.model ?? 'unknown model'}` : null };
  const design = recordOf(r, RECORD_TYPES.designTurn);
  if (design) return { whoKind: 'agent', who: roleName(design.data.role), agent: null };
  if (r.actor.kind === 'person') return { whoKind: 'person', who: r.actor.id, agent: null };
  if (r.actor.kind === 'agent') return { whoKind: 'agent', who: roleName(r.actor.id.split(':')[0] ?? r.actor.id), agent: null };
  return { whoKind: 'orchestrator', who: 'Orchestrator', agent: null };
};

/** The record as a dossier line; a record type the catalogue does not know (or malformed) is named by its type. */
export function dossierEntry(r: LedgerRecord): DossierEntry {
  const words = cycleWords(r) ?? itemWords(r) ?? decisionWords(r) ?? said(`Recorded ${r.type}`);
  const agent = turnOf(r)?.agent ?? null;
  return {
    seq: r.seq,
    hash: r.hash,
    at: r.at,
    type: r.type,
    ...who(r),
    ...words,
    run: runOfRecord(r),
    usage: agent ? { inputTokens: agent.inputTokens, outputTokens: agent.outputTokens, costUsd: agent.costUsd } : null,
  };
}
