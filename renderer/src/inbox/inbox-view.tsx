/**
 * The inbox: every decision waiting for a person — blocked runs, escalated items, test amendments,
 * then gates — oldest first, and the evidence of the open one. After a decision the next one opens.
 * Approved test amendments waiting for their re-run are listed last, for information.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { RUN_DEPLOYS } from '../../../shared/gate-words';
import { readOnlyReason } from '../../../shared/read-only';
import { NotifyToggle } from '../notify/notify-toggle';
import { moveIndex } from '../board/card-window';
import { Icon } from '../components/icon';
import { Badge, FALLBACK, GATE_LOOK, GateStatusBadge, TestStatusBadge } from '../components/status-badge';
import { friendlyTime, humanize } from '../lib/format';
import {
  entryKey,
  firstDecidable,
  inboxEntries,
  nextAfter,
  sameInboxRef,
  type BlockEntry,
  type EscalationEntry,
  type GateEntry,
  type InboxEntry,
  type InboxRef,
} from '../lib/inbox-model';
import { hrefFor } from '../store/hash-route';
import { useStore } from '../store/store';
import { AmendmentButton } from './amendment-button';
import { AmendmentPanel } from './amendment-panel';
import { EscalationPanel } from './escalation-panel';
import { EvidencePanel } from './evidence-panel';
import { RunBlockPanel } from './run-block-panel';

const waitingFor = (at: string | null): string => {
  const waiting = at ? friendlyTime(at) : null;
  return waiting ? `waiting ${waiting.relative.replace(/ ago$/, '')}` : 'waiting';
};

/** What the list says under a gate: what it waits on, or for how long it has waited for you. */
const gateWait = (entry: GateEntry): string => {
  if (entry.group === 'earlier' && entry.waitsFor) return `after ${humanize(entry.waitsFor)}`;
  // An acceptance held back by unproven ACs waits on proof, or on the PO's explicit exception: not on files.
  if (entry.gate.blockedBy?.kind === 'unproven') return 'needs proof or an exception';
  if (entry.group === 'evidence')
    return entry.gate.blockedBy?.message.includes(RUN_DEPLOYS)
      ? 'Run deploys and writes its evidence'
      : entry.ref.gate === 'deploy' || entry.ref.gate === 'promote'
        ? 'waiting on its evidence'
        : 'waiting on its artifacts';
  if (entry.group === 'sent-back' && entry.gate.decidedBy) {
    const when = friendlyTime(entry.gate.decidedBy.at);
    return `sent back by ${entry.gate.decidedBy.who}${when ? ` ${when.relative}` : ''}; waiting for a new version`;
  }
  if (entry.group === 'read-only') return 'cannot be decided here';
  return waitingFor(entry.gate.pendingSince);
};

function GateButton({ entry, current }: { entry: GateEntry; current: boolean }) {
  const selectInbox = useStore((s) => s.selectInbox);
  const { ref, gate, featureName } = entry;
  const readOnly = entry.group === 'read-only';
  return (
    <button
      type="button"
      className="inbox-item"
      data-testid={`inbox-item-${entryKey(entry)}`}
      aria-current={current ? 'true' : undefined}
      onClick={() => selectInbox(ref)}
    >
      <span className="inbox-item-top">
        <span className="inbox-item-title">
          <span className="inbox-item-gate">{humanize(ref.gate)}</span>
          {ref.story && <span className="muted"> · {ref.story}</span>}
        </span>
        {readOnly ? <Badge look={GATE_LOOK[gate.status] ?? FALLBACK} word={`${gate.status} (read-only)`} /> : <GateStatusBadge status={gate.status} />}
      </span>
      {entry.group === 'sent-back' && gate.note && (
        <span className="inbox-item-description" data-testid={`inbox-note-${entryKey(entry)}`}>
          “{gate.note}”
        </span>
      )}
      <span className="inbox-item-meta">
        <span className="inbox-item-feature">{featureName}</span>
        <span className="muted">{gateWait(entry)}</span>
      </span>
    </button>
  );
}

function EscalationButton({ entry, current }: { entry: EscalationEntry; current: boolean }) {
  const selectInbox = useStore((s) => s.selectInbox);
  const { ref, escalation, featureName, item } = entry;
  return (
    <button
      type="button"
      className="inbox-item inbox-escalation"
      data-testid={`inbox-escalation-${ref.feature}-${ref.item}`}
      aria-current={current ? 'true' : undefined}
      onClick={() => selectInbox(ref)}
    >
      <span className="inbox-item-top">
        <span className="inbox-item-title">
          <span className="mono">{ref.item}</span>
          {escalation.round > 1 && <span className="muted"> · round {escalation.round}</span>}
        </span>
        <TestStatusBadge status="escalated" />
      </span>
      {item && <span className="inbox-item-description">{item.description}</span>}
      <span className="inbox-item-meta">
        <span className="inbox-item-feature">{featureName}</span>
        <span className="muted">{waitingFor(escalation.at)}</span>
      </span>
    </button>
  );
}

function BlockButton({ entry, current }: { entry: BlockEntry; current: boolean }) {
  const selectInbox = useStore((s) => s.selectInbox);
  const { ref, block, featureName } = entry;
  return (
    <button
      type="button"
      className="inbox-item inbox-escalation"
      data-testid={`inbox-block-${ref.feature}`}
      aria-current={current ? 'true' : undefined}
      onClick={() => selectInbox(ref)}
    >
      <span className="inbox-item-top">
        <span className="inbox-item-title">Run blocked</span>
        <Badge look={{ icon: 'red', tone: 'danger' }} word="blocked" />
      </span>
      <span className="inbox-item-description">{block.gates.map((g) => `${humanize(g.gate)} ${g.status}`).join(', ')}</span>
      <span className="inbox-item-meta">
        <span className="inbox-item-feature">{featureName}</span>
        <span className="muted">{waitingFor(block.record.at)}</span>
      </span>
    </button>
  );
}

function EntryButton({ entry, current }: { entry: InboxEntry; current: boolean }) {
  if (entry.kind === 'gate') return <GateButton entry={entry} current={current} />;
  if (entry.kind === 'block') return <BlockButton entry={entry} current={current} />;
  if (entry.kind === 'amendment') return <AmendmentButton entry={entry} current={current} />;
  return <EscalationButton entry={entry} current={current} />;
}

function Section({
  id,
  title,
  entries,
  active,
  className,
}: {
  id: string;
  title: string;
  entries: readonly InboxEntry[];
  active: InboxEntry | null;
  className?: string;
}) {
  if (entries.length === 0) return null;
  return (
    <>
      <h3 className="pane-subtitle" id={id}>
        {title} <span className="muted">({entries.length})</span>
      </h3>
      <ul role="list" aria-labelledby={id} className={className}>
        {entries.map((entry) => (
          <li key={entryKey(entry)}>
            <EntryButton entry={entry} current={entry === active} />
          </li>
        ))}
      </ul>
    </>
  );
}

export function InboxView() {
  const project = useStore((s) => s.project);
  const selected = useStore((s) => s.inboxSelected);
  const selectInbox = useStore((s) => s.selectInbox);
  const entries = useMemo(() => inboxEntries(project), [project]);
  const detail = useRef<HTMLDivElement>(null);
  // After a decision the next entry's heading takes the focus, so a keyboard user goes on from there.
  const [decided, setDecided] = useState(false);
  // Nothing chosen: the first decision you can make now; a gate that waits (on evidence, on its author) is opened only when you pick it.
  // (A read-only project decides nothing: there its first entry opens, to be read.)
  const active = entries.find((e) => sameInboxRef(e.ref, selected)) ?? firstDecidable(entries) ?? (project?.readOnly ? (entries[0] ?? null) : null);
  const activeKey = active ? entryKey(active) : null;

  useEffect(() => {
    if (!decided) return;
    detail.current?.querySelector<HTMLElement>('[data-detail-heading]')?.focus();
    setDecided(false);
  }, [decided, activeKey]);

  if (entries.length === 0) {
    return (
      <div className="empty-state" data-testid="inbox-empty">
        <div className="empty-stack">
          <p className="empty-title">Nothing needs you</p>
          <p>
            Gates waiting for a decision, items whose cycle escalated and proposed test amendments appear here, oldest first. What was decided is under{' '}
            <a href={hrefFor('gates')}>Gates</a>, and the record of it under <a href={hrefFor('evidence')}>Evidence</a>.
          </p>
        </div>
      </div>
    );
  }

  // ↑/↓ (Page Up/Down, Home, End) move through the list in the order it shows, opening each entry as it is reached; Enter and Tab work as on any button.
  const onListKey = (event: React.KeyboardEvent<HTMLElement>) => {
    const items = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button.inbox-item')];
    const to = moveIndex(event.key, items.indexOf(event.target as HTMLButtonElement), items.length, 8);
    if (to === null || !items.includes(event.target as HTMLButtonElement)) return;
    event.preventDefault();
    items[to]!.focus();
    items[to]!.click();
  };
  const onDecided = (ref: InboxRef) => {
    selectInbox(nextAfter(entries, ref));
    setDecided(true);
  };
  const blocks = entries.filter((e) => e.kind === 'block');
  const escalations = entries.filter((e) => e.kind === 'escalation');
  const amendments = (group: 'pending' | 'rerun') => entries.filter((e) => e.kind === 'amendment' && e.group === group);
  const gates = (group: GateEntry['group']) => entries.filter((e) => e.kind === 'gate' && e.group === group);
  const readOnly = project ? readOnlyReason(project, 'gates') : null;

  return (
    <div className="inbox-view">
      <nav className="inbox-list" aria-labelledby="inbox-list-title" onKeyDown={onListKey}>
        {readOnly ? (
          <>
            <h2 id="inbox-list-title" className="pane-title" data-testid="inbox-title">
              Nothing can be decided here <span className="muted">(read-only)</span>
            </h2>
            <p className="inbox-read-only" data-testid="inbox-read-only">
              <Icon name="lock" /> {readOnly}
            </p>
          </>
        ) : (
          <>
            <h2 id="inbox-list-title" className="pane-title" data-testid="inbox-title">
              Decisions waiting <span className="muted">({entries.length})</span>
            </h2>
            <NotifyToggle />
          </>
        )}
        <Section id="inbox-blocks-title" title="Blocked runs" entries={blocks} active={active} />
        <Section id="inbox-escalations-title" title={readOnly ? 'Escalations (read-only)' : 'Escalations'} entries={escalations} active={active} />
        <Section
          id="inbox-amendments-title"
          title={readOnly ? 'Test amendments (read-only)' : 'Test amendments'}
          entries={amendments('pending')}
          active={active}
        />
        <Section id="inbox-ready-title" title="Ready to decide" entries={gates('ready')} active={active} />
        <Section id="inbox-evidence-title" title="Waiting on evidence or proof" entries={gates('evidence')} active={active} className="inbox-blocked" />
        <Section id="inbox-blocked-title" title="Waiting on an earlier gate" entries={gates('earlier')} active={active} className="inbox-blocked" />
        <Section id="inbox-sent-back-title" title="Sent back" entries={gates('sent-back')} active={active} className="inbox-blocked" />
        <Section id="inbox-read-only-title" title="Open gates (read-only)" entries={gates('read-only')} active={active} className="inbox-blocked" />
        <Section
          id="inbox-rerun-title"
          title="Amendments approved, waiting for a re-run"
          entries={amendments('rerun')}
          active={active}
          className="inbox-blocked"
        />
      </nav>
      <div className="inbox-detail" ref={detail}>
        {active === null ? (
          <div className="empty-state" data-testid="inbox-nothing-to-decide">
            <div className="empty-stack">
              <p className="empty-title" tabIndex={-1} data-detail-heading>
                Nothing to decide now
              </p>
              <p>Everything listed waits on something else: its evidence, an earlier gate, or a new version from its author. Pick one to read it.</p>
            </div>
          </div>
        ) : active.kind === 'gate' ? (
          <EvidencePanel key={entryKey(active)} entry={active} onDecided={onDecided} />
        ) : active.kind === 'block' ? (
          <RunBlockPanel key={entryKey(active)} entry={active} onDecided={onDecided} />
        ) : active.kind === 'amendment' ? (
          <AmendmentPanel key={entryKey(active)} entry={active} onDecided={onDecided} />
        ) : (
          <EscalationPanel key={entryKey(active)} entry={active} onDecided={onDecided} />
        )}
      </div>
    </div>
  );
}
