/**
 * The inbox: every gate waiting for a person, oldest first, and the evidence of the open one.
 * After a decision the next one opens.
 */
import { useMemo } from 'react';
import { GateStatusBadge } from '../components/status-badge';
import { friendlyTime, humanize } from '../lib/format';
import { gateKey, sameRef, type GateRef } from '../lib/gate-ref';
import { inboxEntries, nextAfter, type InboxEntry } from '../lib/inbox-model';
import { hrefFor } from '../store/hash-route';
import { useStore } from '../store/store';
import { EvidencePanel } from './evidence-panel';

function EntryButton({ entry, current }: { entry: InboxEntry; current: boolean }) {
  const selectInbox = useStore((s) => s.selectInbox);
  const { ref, gate, featureName } = entry;
  const waiting = gate.pendingSince ? friendlyTime(gate.pendingSince) : null;
  return (
    <button
      type="button"
      className="inbox-item"
      data-testid={`inbox-item-${gateKey(ref)}`}
      aria-current={current ? 'true' : undefined}
      onClick={() => selectInbox(ref)}
    >
      <span className="inbox-item-top">
        <span className="inbox-item-title">
          <span className="inbox-item-gate">{humanize(ref.gate)}</span>
          {ref.story && <span className="muted"> · {ref.story}</span>}
        </span>
        <GateStatusBadge status={gate.status} />
      </span>
      <span className="inbox-item-meta">
        <span className="inbox-item-feature">{featureName}</span>
        <span className="muted">
          {entry.waitsFor ? `after ${humanize(entry.waitsFor)}` : waiting ? `waiting ${waiting.relative.replace(/ ago$/, '')}` : 'waiting'}
        </span>
      </span>
    </button>
  );
}

export function InboxView() {
  const project = useStore((s) => s.project);
  const selected = useStore((s) => s.inboxSelected);
  const selectInbox = useStore((s) => s.selectInbox);
  const entries = useMemo(() => inboxEntries(project), [project]);

  if (entries.length === 0) {
    return (
      <div className="empty-state" data-testid="inbox-empty">
        <div className="empty-stack">
          <p className="empty-title">Nothing needs you</p>
          <p>
            Gates waiting for a decision appear here, oldest first. What was decided is under <a href={hrefFor('gates')}>Gates</a>, and
            the record of it under <a href={hrefFor('evidence')}>Evidence</a>.
          </p>
        </div>
      </div>
    );
  }

  // The selected gate while it still waits; otherwise the oldest.
  const active = entries.find((e) => sameRef(e.ref, selected)) ?? entries[0]!;
  const onDecided = (decided: GateRef) => selectInbox(nextAfter(entries, decided));
  const ready = entries.filter((e) => e.waitsFor === null);
  const blocked = entries.filter((e) => e.waitsFor !== null);

  return (
    <div className="inbox-view">
      <nav className="inbox-list" aria-labelledby="inbox-list-title">
        <h2 id="inbox-list-title" className="pane-title">
          Decisions waiting <span className="muted">({entries.length})</span>
        </h2>
        {ready.length > 0 && (
          <h3 className="pane-subtitle" id="inbox-ready-title">
            Ready to decide <span className="muted">({ready.length})</span>
          </h3>
        )}
        {ready.length > 0 && (
          <ul role="list" aria-labelledby="inbox-ready-title">
            {ready.map((entry) => (
              <li key={gateKey(entry.ref)}>
                <EntryButton entry={entry} current={entry === active} />
              </li>
            ))}
          </ul>
        )}
        {blocked.length > 0 && (
          <>
            <h3 className="pane-subtitle" id="inbox-blocked-title">
              Waiting on an earlier gate <span className="muted">({blocked.length})</span>
            </h3>
            <ul role="list" aria-labelledby="inbox-blocked-title" className="inbox-blocked">
              {blocked.map((entry) => (
                <li key={gateKey(entry.ref)}>
                  <EntryButton entry={entry} current={entry === active} />
                </li>
              ))}
            </ul>
          </>
        )}
      </nav>
      <EvidencePanel key={gateKey(active.ref)} entry={active} onDecided={onDecided} />
    </div>
  );
}
