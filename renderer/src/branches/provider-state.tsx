/**
 * The top bar's database provider: a dot with a word ("embedded", "local server", "Neon",
 * "Lakebase"), "experimental" for the cloud providers. The dot's shape carries the state too
 * (hollow: not started, filled: running, a warning sign: failed or a warning such as a warm pool
 * that cannot refill, named in a tag and in the tooltip), so colour is never alone.
 */
import { useEffect } from 'react';
import { PROVIDER_LABELS } from '../../../shared/branches';
import { Icon } from '../components/icon';
import { refreshBranchStatus } from '../store/branch-actions';
import { hrefFor } from '../store/hash-route';
import { useStore } from '../store/store';

const STATE_WORDS = { idle: 'not started yet', ready: 'running', failed: 'failed to start' } as const;

export function ProviderState() {
  const project = useStore((s) => s.project);
  const status = useStore((s) => s.branchStatus);

  // Any re-read may have changed project.json's provider.
  useEffect(() => {
    if (project) void refreshBranchStatus();
  }, [project]);

  if (!status || !status.provider || status.state === 'unavailable') return null;
  const label = PROVIDER_LABELS[status.provider];
  const state = status.state as keyof typeof STATE_WORDS;
  const { warnings } = status;
  const description = `Database branches: ${label}${status.experimental ? ' (experimental)' : ''}, ${STATE_WORDS[state]}${status.message ? ` — ${status.message}` : ''}${warnings.length ? ` — ${warnings.join(' ')}` : ''}`;
  return (
    <a href={hrefFor('branches')} className="provider-state" data-testid="provider-state" data-state={state} title={description} aria-label={description}>
      {state === 'failed' || warnings.length ? (
        <Icon name="warning" className="provider-warning" />
      ) : (
        <span className={`provider-dot provider-dot-${state}`} aria-hidden="true" />
      )}
      <span data-testid="provider-label">{label}</span>
      {warnings.length > 0 && (
        <span className="tag" data-testid="provider-warnings">
          {warnings.length === 1 ? 'warning' : `${warnings.length} warnings`}
        </span>
      )}
      {status.experimental && (
        <span className="tag" data-testid="provider-experimental">
          experimental
        </span>
      )}
    </a>
  );
}
