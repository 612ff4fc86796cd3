/** The steps a running branch operation reported, announced politely, with a bar when bytes are counted. */
import type { BranchProgress } from '../../../shared/branches';
import { Icon } from '../components/icon';

interface Props {
  readonly progress: readonly BranchProgress[];
  readonly running: boolean;
  /** Shown before the first step arrives. */
  readonly starting: string;
}

export function OpProgress({ progress, running, starting }: Props) {
  const steps = progress.filter((p): p is Extract<BranchProgress, { kind: 'branch.step' }> => p.kind === 'branch.step');
  const bytes = [...progress].reverse().find((p): p is Extract<BranchProgress, { kind: 'branch.bytes' }> => p.kind === 'branch.bytes');
  const retry = [...progress].reverse().find((p): p is Extract<BranchProgress, { kind: 'branch.retry' }> => p.kind === 'branch.retry');
  // Inner steps (making the root, a server) report their own `done`: the last one closes the operation.
  const done = running ? undefined : [...progress].reverse().find((p): p is Extract<BranchProgress, { kind: 'branch.done' }> => p.kind === 'branch.done');
  return (
    <div className="op-progress" role="status" aria-live="polite" data-testid="branch-progress" data-running={running ? 'true' : 'false'}>
      <ol className="op-steps">
        {steps.length === 0 && running && (
          <li className="op-step op-step-current">
            <Icon name="progress" /> {starting}
          </li>
        )}
        {steps.map((step, index) => {
          const current = running && index === steps.length - 1;
          return (
            <li key={index} className={current ? 'op-step op-step-current' : 'op-step'} data-testid="branch-progress-step">
              <Icon name={current ? 'progress' : 'green'} />
              <span>{step.step}</span>
              <span className="visually-hidden">{current ? '(in progress)' : '(done)'}</span>
            </li>
          );
        })}
      </ol>
      {running && bytes && (
        <label className="op-bytes">
          <span className="muted">
            {bytes.total ? `${Math.round((bytes.done / bytes.total) * 100)}% copied` : `${bytes.done.toLocaleString('en-US')} bytes copied`}
          </span>
          <progress value={bytes.done} max={bytes.total ?? undefined} />
        </label>
      )}
      {running && retry && (
        <p className="tone-text-warning">
          <Icon name="warning" /> Retrying (attempt {retry.attempt}): {retry.reason}
        </p>
      )}
      {done && <p className="muted">Finished in {done.ms.toLocaleString('en-US')} ms.</p>}
    </div>
  );
}
