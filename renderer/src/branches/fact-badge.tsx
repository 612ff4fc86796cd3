/**
 * A row's fact as a badge: whether a pair is merged into its parent, or where its database stands
 * against its code's migrations (lib/branch-tree.ts words them). The Branch tree and the run
 * panel's Path show the same badges.
 */
import type { BranchPairView, MigrationState } from '../../../shared/branches';
import { Icon } from '../components/icon';
import { mergeFact, migrationFact } from '../lib/branch-tree';

/** "merged into <parent>" / "not merged into <parent>", or nothing when that means nothing (a root, an orphan, nothing of its own yet, an older host). */
export function MergeBadge({ pair, parentLabel, testId }: { pair: BranchPairView; parentLabel: string | null; testId: string }) {
  const merge = mergeFact(pair, parentLabel);
  if (!merge) return null;
  return (
    <span className={`badge tone-${merge.tone}`} title={merge.title} data-testid={testId} data-merged={pair.merged}>
      <Icon name="branch" />
      <span>{merge.word}</span>
    </span>
  );
}

/** The last migration check's answer for one pair (`label` names it in the tooltip). */
export function MigrationBadge({ label, migrations, testId }: { label: string; migrations: MigrationState; testId: string }) {
  const fact = migrationFact(label, migrations);
  return (
    <span className={`badge tone-${fact.tone}`} title={fact.title} data-testid={testId} data-state={migrations.state}>
      <Icon name={fact.tone === 'warning' ? 'warning' : 'database'} />
      <span>{fact.word}</span>
    </span>
  );
}
