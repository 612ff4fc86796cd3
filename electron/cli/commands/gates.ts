/** `baton gates <dir> [--json]`: every gate of every feature, with approver, time and drift. */
import type { Gate } from '../../../shared/model';
import { flag, JSON_OPTION, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { withProject } from '../open-project';
import { table } from '../table';
import { formatEvidence } from '../evidence-format';

/** Consort's promote gate hashes what was promoted (`promote_ref`), not a file: say so instead of inventing a file. */
const referenceNote = (gate: Gate): string | null => {
  const refs = gate.artifacts.filter((a) => a.kind === 'reference').map((a) => a.name);
  return refs.length ? `records a reference, not a file (${refs.join(', ')})` : null;
};

export const gatesCommand: Command = {
  name: 'gates',
  synopsis: 'gates <dir|bundle> [--json]',
  summary: 'Gate status per feature (approved, open, rejected, withdrawn, drifted)',
  options: JSON_OPTION,
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    return withProject(onePath(positionals, this.synopsis), json, io, async (session, view) => {
      // No channel carries a whole feature's evidence (the inbox asks per gate): the Workbench folds it.
      const features = view.features.map((f) => {
        const evidence = session.workbench.featureEvidence(f.id);
        return { id: f.id, name: f.name, gates: f.gates, evidence: evidence.ok ? evidence.value : null };
      });
      const drifted = features.some((f) => f.gates.some((g) => g.status === 'drifted'));
      if (json) printJson(io, { layout: view.layout, features });
      else {
        for (const feature of features) {
          io.out(`${feature.id}  ${feature.name}`);
          const rows = feature.gates.map((g) => [
            g.story ? `${g.name} (${g.story})` : g.name,
            g.status,
            g.approver ?? '-',
            g.approvedAt ?? '-',
            g.drift.map((d) => `${d.artifact} changed`).join(', ') || referenceNote(g) || g.note || '',
          ]);
          io.out(table(['gate', 'status', 'approver', 'approved at', 'notes'], rows, '  '));
          if (feature.evidence) io.out(formatEvidence(feature.evidence, '  '));
          io.out('');
        }
      }
      return drifted ? EXIT.problems : EXIT.ok;
    });
  },
};
