/** A test amendment in the inbox list: the item and its file, who proposed it, and whether it waits for you or for its re-run. */
import { Badge } from '../components/status-badge';
import { proposerOf, type AmendmentEntry } from '../lib/amendment-model';
import { friendlyTime } from '../lib/format';
import { useStore } from '../store/store';

/**
 * The status word of an amendment the inbox lists: a decision needed (pending, in a read-only
 * project), or approved and waiting for its re-run (`short`: just "approved").
 */
export function AmendmentBadge(props: { group: AmendmentEntry['group']; readOnly: boolean; short?: boolean; testId?: string }) {
  const { group, readOnly, short = false, testId } = props;
  if (group === 'pending')
    return <Badge look={{ icon: 'clock', tone: 'warning' }} word={readOnly ? 'pending (read-only)' : 'decision needed'} testId={testId} />;
  return <Badge look={{ icon: 'green', tone: 'info' }} word={short ? 'approved' : 'approved — re-runs on the next run'} testId={testId} />;
}

export function AmendmentButton({ entry, current }: { entry: AmendmentEntry; current: boolean }) {
  const selectInbox = useStore((s) => s.selectInbox);
  const readOnly = useStore((s) => s.project?.readOnly ?? false);
  const { ref, amendment, featureName, item, group } = entry;
  const since = group === 'pending' ? amendment.at : (amendment.decidedAt ?? amendment.at);
  const relative = friendlyTime(since)?.relative;
  const by = group === 'pending' ? `by ${proposerOf(amendment.proposedBy)}` : 'approved — re-runs on the next run';
  const files = amendment.files.map((f) => f.path).join(', ');
  return (
    <button
      type="button"
      className={group === 'pending' ? 'inbox-item inbox-escalation' : 'inbox-item inbox-escalation inbox-amendment-rerun'}
      data-testid={`inbox-amendment-${ref.feature}-${amendment.item}`}
      data-group={group}
      aria-current={current ? 'true' : undefined}
      onClick={() => selectInbox(ref)}
    >
      <span className="inbox-item-top">
        <span className="inbox-item-title">
          <span className="mono">{amendment.item}</span>
          <span className="muted"> · test amendment</span>
        </span>
        <AmendmentBadge group={group} readOnly={readOnly} short />
      </span>
      {item && <span className="inbox-item-description">{item.description}</span>}
      <span
        className="inbox-item-by muted"
        title={group === 'pending' ? `${by} · ${files}` : `${by} · approved by ${amendment.decidedBy ?? 'someone'} · ${files}`}
      >
        {by}
      </span>
      <span className="inbox-item-meta">
        <span className="inbox-item-feature">{featureName}</span>
        {group === 'pending' && readOnly ? (
          <span className="muted">cannot be decided here</span>
        ) : (
          relative && <span className="muted">{group === 'pending' ? `waiting ${relative.replace(/ ago$/, '')}` : relative}</span>
        )}
      </span>
    </button>
  );
}
