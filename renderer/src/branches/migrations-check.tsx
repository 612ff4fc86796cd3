/**
 * "Check migrations" on the Branches toolbar: asks once (it connects to every database, so it is
 * never polled) where each pair's database stands against its code's migrations. The answer
 * shows on the rows; a failure shows here, and the last answer stays. The run panel's Path uses it
 * too (its own test ids): both show the same answer.
 */
import type { PairMigrations } from '../../../shared/branches';
import { Icon } from '../components/icon';
import { checkMigrations } from '../store/branch-actions';
import { useBranchOp } from './use-branch-op';

interface Props {
  readonly testId?: string;
  readonly errorTestId?: string;
  /** Why the check should not be asked for now (the button is disabled and says so), or null. */
  readonly blockedReason?: string | null;
}

export function MigrationsCheck({ testId = 'branch-check-migrations', errorTestId = 'branch-migrations-error', blockedReason = null }: Props) {
  const op = useBranchOp<readonly PairMigrations[]>();
  return (
    <>
      <button
        type="button"
        className="button"
        data-testid={testId}
        disabled={op.running || blockedReason !== null}
        aria-busy={op.running}
        title={blockedReason ?? 'Compare each pair’s database with its code’s migrations (connects to every database)'}
        onClick={() => void op.start(checkMigrations)}
      >
        <Icon name="database" /> {op.running ? 'Checking…' : 'Check migrations'}
      </button>
      {op.error && !op.running && (
        <p className="branch-migrations-error" role="alert" data-testid={errorTestId} data-code={op.error.code}>
          <Icon name="warning" />
          <span>{op.error.message}</span>
        </p>
      )}
    </>
  );
}
