/**
 * "Check migrations" on the Branches toolbar: asks once (it connects to every database, so it is
 * never polled) where each pair's database stands against its code's migrations. The answer
 * shows on the rows; a failure shows here, and the last answer stays.
 */
import type { PairMigrations } from '../../../shared/branches';
import { Icon } from '../components/icon';
import { checkMigrations } from '../store/branch-actions';
import { useBranchOp } from './use-branch-op';

export function MigrationsCheck() {
  const op = useBranchOp<readonly PairMigrations[]>();
  return (
    <>
      <button
        type="button"
        className="button"
        data-testid="branch-check-migrations"
        disabled={op.running}
        aria-busy={op.running}
        title="Compare each pair’s database with its code’s migrations (connects to every database)"
        onClick={() => void op.start(checkMigrations)}
      >
        <Icon name="database" /> {op.running ? 'Checking…' : 'Check migrations'}
      </button>
      {op.error && !op.running && (
        <p className="branch-migrations-error" role="alert" data-testid="branch-migrations-error" data-code={op.error.code}>
          <Icon name="warning" />
          <span>{op.error.message}</span>
        </p>
      )}
    </>
  );
}
