/**
 * How the last run ended, in words that match its colour, with the way on: a blocked run names the
 * gate and files and links to its Inbox entry, an escalated one links to the escalation, a run that
 * waits at a gate links to that gate. The CLI commands in the summary are for terminals, not here.
 */
import type { RunStateView, RunSummary } from '../../../shared/run';
import { Icon } from '../components/icon';
import { humanize } from '../lib/format';
import type { InboxRef } from '../lib/inbox-model';
import { hrefFor } from '../store/hash-route';
import { useStore } from '../store/store';

const GATE_OF_PHASE: Readonly<Record<string, string>> = {
  specGate: 'spec',
  designGate: 'design',
  testListGate: 'test_list',
  acceptance: 'acceptance',
  deployGate: 'deploy',
  promoteGate: 'promote',
  promoting: 'promote',
};

function InboxLink({ target, children, testId }: { target: InboxRef | null; children: string; testId: string }) {
  const selectInbox = useStore((s) => s.selectInbox);
  // The selection is set before the hash changes, so the Inbox opens on this entry.
  return (
    <a href={hrefFor('inbox')} data-testid={testId} onClick={() => target && selectInbox(target)}>
      {children}
    </a>
  );
}

const blockedWords = (blocked: NonNullable<RunSummary['blocked']>): string =>
  blocked.gates
    .map(
      (g) =>
        `the ${humanize(g.gate)} gate${g.story ? ` of ${g.story}` : ''} ${g.status === 'drifted' ? `drifted${g.files.length ? ` (${g.files.join(', ')} changed since it was approved)` : ''}` : `is ${g.status}`}`,
    )
    .join('; ');

export function RunOutcome({ run }: { run: RunStateView }) {
  const summary = run.summary;
  const feature = run.feature ?? summary?.feature ?? null;
  if (!summary || !feature || run.running) return null;
  if (run.outcome === 'blocked' && summary.blocked) {
    return (
      <p className="run-outcome tone-danger" data-testid="run-outcome" data-outcome="blocked">
        <Icon name="red" />
        <span>
          <strong>Blocked before anything more was built:</strong> {blockedWords(summary.blocked)}.{' '}
          <InboxLink target={{ kind: 'block', feature }} testId="run-outcome-link">
            Restore the files or re-approve the gate in the Inbox
          </InboxLink>
        </span>
      </p>
    );
  }
  if (run.outcome === 'escalated') {
    const first = summary.escalations.find((e) => e.item !== null);
    return (
      <p className="run-outcome tone-warning" data-testid="run-outcome" data-outcome="escalated">
        <Icon name="warning" />
        <span>
          <strong>Escalated:</strong> {summary.escalations.map((e) => e.item ?? 'the feature').join(', ') || 'items'} wait for a person.{' '}
          <InboxLink target={first?.item ? { feature, item: first.item } : null} testId="run-outcome-link">
            Decide in the Inbox
          </InboxLink>
        </span>
      </p>
    );
  }
  if (run.outcome !== 'finished') return null;
  const gate = GATE_OF_PHASE[summary.phase];
  if (gate) {
    return (
      <p className="run-outcome" data-testid="run-outcome" data-outcome="waiting">
        <Icon name="clock" />
        <span>
          Waiting for the {humanize(gate)} gate.{' '}
          <InboxLink target={gate === 'acceptance' ? null : { feature, gate: gate as never, story: null }} testId="run-outcome-link">
            Decide it in the Inbox
          </InboxLink>
        </span>
      </p>
    );
  }
  return (
    <p className="run-outcome tone-success" data-testid="run-outcome" data-outcome={summary.phase}>
      <Icon name="green" />
      <span>{summary.phase === 'done' ? 'Done: every gate passed.' : `Stopped at ${humanize(summary.phase)}.`}</span>
    </p>
  );
}
