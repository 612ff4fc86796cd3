/**
 * The drawer's locked test: the item's own locked files (path, hash, size) and "Propose test
 * amendment…", which opens the dialog. Shown once the item's tests are locked; the button is left
 * out of a read-only project and disabled, with the reason beside it, while an amendment of the
 * item waits for a decision or for its re-run.
 */
import { useState } from 'react';
import type { Feature, TestItem } from '../../../shared/model';
import { readOnlyReason } from '../../../shared/read-only';
import { Icon } from '../components/icon';
import { lockedTestsOf, openAmendmentOf, proposeBlockedBy } from '../lib/amendment-model';
import { formatBytes } from '../lib/artifact-text';
import { shortHash } from '../lib/format';
import { hrefFor } from '../store/hash-route';
import { useStore } from '../store/store';
import { AmendmentDialog } from './amendment-dialog';

export function LockedTestSection({ feature, item }: { feature: Feature; item: TestItem }) {
  const readOnly = useStore((s) => s.project?.readOnly ?? false);
  const bundle = useStore((s) => s.project?.bundle ?? null);
  const layout = useStore((s) => s.project?.layout ?? 'baton');
  const selectInbox = useStore((s) => s.selectInbox);
  const [proposing, setProposing] = useState(false);
  const locked = lockedTestsOf(feature, item.id);
  if (!locked) return null;
  const writable = readOnlyReason({ readOnly, bundle, layout }, 'amendments') === null;
  const open = openAmendmentOf(feature, item.id);
  const blocked = open ? proposeBlockedBy(item.id, open) : null;

  return (
    <section className="drawer-section" aria-labelledby="drawer-locked-title" data-testid="item-locked-tests">
      <h3 id="drawer-locked-title">
        <Icon name="lock" /> Locked test
      </h3>
      <ul className="locked-files" role="list">
        {locked.files.map((f) => (
          <li key={f.path}>
            <span className="mono">{f.path}</span>{' '}
            <code className="hash muted" title={`sha256 ${f.sha256}`}>
              {shortHash(f.sha256)}
            </code>{' '}
            <span className="muted">{formatBytes(f.bytes)}</span>
          </li>
        ))}
      </ul>
      {writable && (
        <div className="amendment-propose">
          <button
            type="button"
            className="button"
            data-testid="propose-amendment"
            disabled={blocked !== null}
            aria-describedby={blocked ? 'propose-amendment-blocked' : undefined}
            onClick={() => setProposing(true)}
          >
            <Icon name="diff" />
            Propose test amendment…
          </button>
          {blocked && open && (
            <p className="muted field-hint" id="propose-amendment-blocked" data-testid="propose-amendment-blocked">
              {blocked}{' '}
              <a href={hrefFor('inbox')} onClick={() => selectInbox({ kind: 'amendment', feature: feature.id, amendment: open.id })}>
                Open it in the Inbox
              </a>
            </p>
          )}
        </div>
      )}
      {proposing && (
        // A dialog above the drawer: its keys are its own (the drawer's focus trap never sees them).
        <div onKeyDown={(e) => e.stopPropagation()}>
          <AmendmentDialog feature={feature.id} item={item.id} locked={locked} onClose={() => setProposing(false)} />
        </div>
      )}
    </section>
  );
}
