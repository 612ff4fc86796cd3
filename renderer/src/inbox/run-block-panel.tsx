/**
 * A run that stopped on a gate it builds on: which gate, which files changed since the approval
 * (each linked to the frozen-versus-current diff), and the two ways on — put the approved files back
 * (after a confirmation that says exactly what is overwritten, re-created and removed; what is
 * replaced stays in the ledger), or withdraw the approval so the new version can be approved.
 */
import { useState } from 'react';
import type { LedgerRecord } from '../../../shared/ledger';
import { readOnlyReason } from '../../../shared/read-only';
import type { RunBlockGate } from '../../../shared/model';
import type { AppError, Result } from '../../../shared/result';
import { Dialog } from '../components/dialog';
import { ErrorBanner } from '../components/error-banner';
import { Icon } from '../components/icon';
import { ReasonDialog } from '../components/reason-dialog';
import { GateStatusBadge } from '../components/status-badge';
import { friendlyTime, humanize, shortHash } from '../lib/format';
import { isGateName, type GateRef } from '../lib/gate-ref';
import type { BlockEntry, BlockRef } from '../lib/inbox-model';
import { restoreGate, withdrawConsequence, withdrawGate } from '../store/gate-actions';
import { hrefForDiff, hrefForRecord } from '../store/hash-route';
import { ensureIdentity } from '../store/identity';
import { useStore } from '../store/store';
import { ChangeIdentity } from './change-identity';

interface Props {
  readonly entry: BlockEntry;
  onDecided(ref: BlockRef): void;
}

/** `plan` of T3 → "PLAN of T3"; `gate:test_list` → "going on from the test list gate"; `start` → "it started". */
const stoppedBefore = (step: string, item: string | null): string => {
  if (item) return `${step.toUpperCase()} of ${item}`;
  if (step.startsWith('gate:')) return `going on from the ${humanize(step.slice(5))} gate`;
  return 'anything ran';
};

const refOfBlock = (feature: string, g: RunBlockGate): GateRef | null => (isGateName(g.gate) ? { feature, gate: g.gate, story: g.story } : null);

function DriftList({ gate }: { gate: RunBlockGate }) {
  return (
    <ul className="block-files" role="list">
      {gate.drift.map((d) => (
        <li key={d.artifact} data-testid={`block-file-${d.artifact.replace(/\//g, '_')}`}>
          <span className="mono">{d.artifact}</span>{' '}
          <span className="muted">
            {d.expected === null
              ? 'added since the approval'
              : d.actual === null
                ? 'deleted since the approval'
                : `changed: approved ${shortHash(d.expected)}…, now ${shortHash(d.actual)}…`}
          </span>
        </li>
      ))}
    </ul>
  );
}

function RestoreDialog({ gate, onConfirm, onClose }: { gate: RunBlockGate; onConfirm: () => void; onClose: () => void }) {
  const overwrite = gate.drift.filter((d) => d.expected !== null && d.actual !== null).map((d) => d.artifact);
  const recreate = gate.drift.filter((d) => d.expected !== null && d.actual === null).map((d) => d.artifact);
  const remove = gate.drift.filter((d) => d.expected === null).map((d) => d.artifact);
  const list = (title: string, names: readonly string[]) =>
    names.length > 0 && (
      <>
        <p>{title}</p>
        <ul>
          {names.map((n) => (
            <li key={n} className="mono">
              {n}
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <Dialog
      title={`Restore the approved files of the ${humanize(gate.gate)} gate?`}
      testId="restore-dialog"
      onClose={onClose}
      onSubmit={onConfirm}
      actions={
        <>
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Keep them as they are
          </button>
          <button type="submit" className="button button-danger" data-testid="restore-confirm">
            Restore
          </button>
        </>
      }
    >
      {list('These files get their approved content back (your edits are replaced):', overwrite)}
      {list('These deleted files are re-created:', recreate)}
      {list('These files, added since the approval, are removed:', remove)}
      <p className="muted">What is replaced or removed is kept in the ledger with the restore record, so nothing is lost.</p>
    </Dialog>
  );
}

export function RunBlockPanel({ entry, onDecided }: Props) {
  const { ref, block, featureName } = entry;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [dialog, setDialog] = useState<{ kind: 'restore' | 'withdraw'; gate: RunBlockGate } | null>(null);
  const approver = useStore((s) => s.approver);
  const project = useStore((s) => s.project);
  // A review bundle shows the block as evidence: nothing in it can be restored or withdrawn.
  const readOnly = project ? readOnlyReason(project, 'changes') : null;
  const when = friendlyTime(block.record.at);

  const decide = async (run: (approver: string) => Promise<Result<LedgerRecord>>) => {
    setDialog(null);
    const approver = await ensureIdentity();
    if (!approver) return;
    setBusy(true);
    setError(null);
    const result = await run(approver);
    setBusy(false);
    if (result.ok) onDecided(ref);
    else setError(result.error);
  };

  return (
    <section className="evidence-panel" aria-labelledby="block-title" data-testid="run-block-panel">
      <header className="evidence-header">
        <div className="evidence-heading">
          <h2 id="block-title" tabIndex={-1} data-detail-heading>
            Run blocked · {featureName}
          </h2>
          <p className="muted">
            <span className="mono">{ref.feature}</span> · stopped before {stoppedBefore(block.step, block.item)}
            {when && (
              <>
                {' '}
                · <time dateTime={block.record.at}>{when.relative}</time>
              </>
            )}{' '}
            · <a href={hrefForRecord(block.record.seq)}>record #{block.record.seq}</a>
          </p>
        </div>
        <span className="badge tone-danger">
          <Icon name="red" />
          <span>blocked</span>
        </span>
      </header>
      <div className="evidence-body">
        <p className="approvable-reason" data-testid="block-why">
          <Icon name="warning" />
          <span>
            Nothing more is built while a gate the work builds on is not approved as it stands. Restore the approved files, or withdraw the approval and approve
            the new version; then press Run.
          </span>
        </p>
        {block.gates.map((gate) => {
          const gateRef = refOfBlock(ref.feature, gate);
          return (
            <article key={`${gate.gate}/${gate.story ?? ''}`} className="block-gate" data-testid={`block-gate-${gate.gate}`}>
              <h3>
                {humanize(gate.gate)} gate{gate.story && <span className="muted"> · story {gate.story}</span>} <GateStatusBadge status={gate.status} />
              </h3>
              {gate.status === 'drifted' ? (
                <>
                  <DriftList gate={gate} />
                  {gateRef && (
                    <p>
                      <a href={hrefForDiff(gateRef)}>Compare with approved</a>
                    </p>
                  )}
                  {readOnly ? (
                    <p className="muted" data-testid="block-read-only">
                      {readOnly}
                    </p>
                  ) : (
                    <div className="block-actions">
                      <button
                        type="button"
                        className="button button-primary"
                        data-testid="restore"
                        disabled={busy}
                        onClick={() => setDialog({ kind: 'restore', gate })}
                      >
                        Restore the approved files…
                      </button>
                      <button
                        type="button"
                        className="button"
                        data-testid="withdraw"
                        disabled={busy || !gateRef}
                        onClick={() => setDialog({ kind: 'withdraw', gate })}
                      >
                        Withdraw the approval…
                      </button>
                    </div>
                  )}
                </>
              ) : (
                <p className="muted">It is {gate.status}: approve it again (it is in this Inbox under the gates) and press Run.</p>
              )}
            </article>
          );
        })}
      </div>
      {(error || (approver && !readOnly)) && (
        <div className="decision-bar">
          {error && <ErrorBanner error={error} title="Nothing changed" onDismiss={() => setError(null)} />}
          <ChangeIdentity hidden={false} busy={busy} />
        </div>
      )}
      {dialog?.kind === 'restore' && (
        <RestoreDialog
          gate={dialog.gate}
          onClose={() => setDialog(null)}
          onConfirm={() => {
            const target = refOfBlock(ref.feature, dialog.gate);
            if (target) void decide((approver) => restoreGate(target, approver, dialog.gate.drift));
          }}
        />
      )}
      {dialog?.kind === 'withdraw' && (
        <ReasonDialog
          title={`Withdraw the ${humanize(dialog.gate.gate)} approval of ${featureName}`}
          testIdPrefix="withdraw"
          submitLabel="Withdraw"
          onSubmit={(reason) => {
            const target = refOfBlock(ref.feature, dialog.gate);
            if (target) void decide((approver) => withdrawGate(target, approver, reason));
          }}
          onClose={() => setDialog(null)}
        >
          <p>{withdrawConsequence(dialog.gate.gate)} Then approve the new version of its files in the Inbox.</p>
        </ReasonDialog>
      )}
    </section>
  );
}
