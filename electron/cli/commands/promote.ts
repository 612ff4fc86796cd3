/**
 * `baton promote <dir> [--feature F] [--dry-run]`: the feature's branch merged into the default
 * branch with the tier database snapshotted, migrated and verified — or, on any failure, both put
 * back as they were and the rollback recorded. `--dry-run` prints exactly what would happen.
 */
import type { PromoteOutcome } from '../../core/project-tools';
import { projectTools } from '../core';
import { flag, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson, type Io } from '../io';
import { failed, withProject } from '../open-project';
import { SHIP_OPTIONS, shipOptions } from './deploy';

export const promoteCommand: Command = {
  name: 'promote',
  synopsis: 'promote <dir> [--feature F] [--dry-run] [--provider P] [--url ADMIN_URL] [--json]',
  summary: "Merge a feature into the default branch and migrate the tier's database, atomically (rolled back on any failure); --dry-run shows the plan",
  options: { ...SHIP_OPTIONS, 'dry-run': { type: 'boolean', default: false } },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const root = onePath(positionals, this.synopsis);
    const dryRun = flag(values, 'dry-run');
    const options = shipOptions(values, io);
    return withProject(
      root,
      json,
      io,
      async (session) => {
        const promoted = await (await projectTools()).promoteOpenProject(session.workbench, { ...options, dryRun });
        if (!promoted.ok) return failed(io, promoted.error, json);
        const outcome = promoted.value;
        if (json) printJson(io, outcome);
        else printOutcome(io, outcome);
        if (outcome.outcome === 'planned') return outcome.plan.refusal ? EXIT.problems : EXIT.ok;
        return outcome.outcome === 'promoted' ? EXIT.ok : EXIT.problems;
      },
      'runs',
    );
  },
};

function printOutcome(io: Io, { plan, recovered, outcome, mergeCommit, applied, record, error }: PromoteOutcome): void {
  if (recovered) io.out(`${recovered.message} (ledger record ${recovered.record.slice(0, 12)}…)`);
  if (outcome === 'planned') {
    io.out(`Promoting ${plan.feature} (${plan.mode === 'local' ? 'local merge' : `pull request on ${plan.remote}`}) would:`);
    plan.steps.forEach((step, i) => io.out(`  ${i + 1}. ${step}`));
    io.out(plan.refusal ? `It cannot go ahead now: ${plan.refusal}` : 'Nothing was changed. Run without --dry-run to do it.');
    return;
  }
  if (outcome === 'promoted') {
    io.out(`Promoted ${plan.feature}: ${plan.tier} is now ${mergeCommit!.slice(0, 12)} (was ${plan.tierCommit.slice(0, 12)}).`);
    io.out(
      `  ${plan.tierDatabase}: ${applied.length ? `applied ${applied.join(', ')}` : 'no migration to apply'}${plan.verify ? `; \`${plan.verify}\` passed` : ''}`,
    );
    io.out(`  snapshot ${plan.snapshot.database} kept ${plan.snapshot.keepHours} h · ledger record ${record!.slice(0, 12)}…`);
    return;
  }
  io.out(`Promoting ${plan.feature} failed and was rolled back: ${error}`);
  io.out(
    `  ${plan.tier} is back at ${plan.tierCommit.slice(0, 12)}; ${plan.tierDatabase} was restored from ${plan.snapshot.database} (kept ${plan.snapshot.keepHours} h).`,
  );
  io.out(`  ledger record ${record!.slice(0, 12)}…`);
}
