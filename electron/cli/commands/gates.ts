/**
 * `baton gates <dir> [--json]`: every gate of every feature, with who decided it (the approver, or
 * who rejected or withdrew it), when, and drift, and the
 * approvals of features whose folder is gone (each of their files missing).
 */
import type { DriftEntry, VerifyReport } from '../../../shared/ledger';
import type { Gate, ProjectView } from '../../../shared/model';
import type { HostSession } from '../../core/host-session';
import { flag, JSON_OPTION, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { withProject } from '../open-project';
import { table } from '../table';
import { formatEvidence } from '../evidence-format';
import { exceptionsLine } from '../../../shared/exception-words';
import { decidedAtWords, deciderWords, gateLabel } from '../../../shared/gate-words';

/** Consort's promote gate hashes what was promoted (`promote_ref`), not a file: say so instead of inventing a file. */
const referenceNote = (gate: Gate): string | null => {
  const refs = gate.artifacts.filter((a) => a.kind === 'reference').map((a) => a.name);
  return refs.length ? `records a reference, not a file (${refs.join(', ')})` : null;
};

/** One drifted artifact in words: changed, missing, or never part of the approval. */
const driftNote = (d: DriftEntry): string =>
  d.expected === null ? `${d.artifact} not in the approval` : d.actual === null ? `${d.artifact} missing` : `${d.artifact} changed`;

type JudgedGate = VerifyReport['gates'][number];

/** A feature whose folder is gone while its gates' decisions stand in the ledger. */
interface MissingFeature {
  readonly id: string;
  readonly folder: 'missing';
  readonly gates: readonly { readonly name: string; readonly story: string | null; readonly status: string; readonly drift: readonly DriftEntry[] }[];
}

/**
 * The view lists the features on disk only; a feature deleted after its gates were decided is still
 * judged (every approved file missing) by the judgement `baton verify` reports, so ask it. Only when
 * the view has problems: such an approval always puts its missing files among them.
 */
const missingFeatures = async (session: HostSession, view: ProjectView): Promise<MissingFeature[]> => {
  if (view.layout !== 'baton' || view.problems.length === 0) return [];
  const verified = await session.call('ledger:verify', {});
  if (!verified.ok) return [];
  const shown = new Set(view.features.map((f) => f.id));
  const byFeature = new Map<string, JudgedGate[]>();
  for (const gate of verified.value.gates) {
    if (!shown.has(gate.feature)) byFeature.set(gate.feature, [...(byFeature.get(gate.feature) ?? []), gate]);
  }
  return [...byFeature].map(([id, gates]) => ({
    id,
    folder: 'missing',
    gates: gates.map((g) => ({ name: g.gate, story: g.story ?? null, status: g.status, drift: g.drift })),
  }));
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
      const missing = await missingFeatures(session, view);
      const drifted = [...features, ...missing].some((f) => f.gates.some((g) => g.status === 'drifted'));
      if (json) printJson(io, { layout: view.layout, features, ...(missing.length ? { missingFeatures: missing } : {}) });
      else {
        for (const feature of features) {
          io.out(`${feature.id}  ${feature.name}`);
          const rows = feature.gates.map((g) => [
            gateLabel(g),
            g.status,
            deciderWords(g),
            decidedAtWords(g),
            g.drift.map(driftNote).join(', ') || referenceNote(g) || g.note || '',
          ]);
          io.out(table(['gate', 'status', 'decided by', 'decided at', 'notes'], rows, '  '));
          // Why a waiting gate cannot be decided on its evidence (a failed merged suite, no deploy evidence yet), as the Inbox says it.
          for (const g of feature.gates) {
            const name = gateLabel(g);
            if (g.blockedBy?.kind === 'evidence' || g.blockedBy?.kind === 'unproven') io.out(`  ${name} cannot be approved yet: ${g.blockedBy.message}`);
            if (g.exceptions) io.out(`  ${name} ${exceptionsLine(g.exceptions)}`);
          }
          if (feature.evidence) io.out(formatEvidence(feature.evidence, '  '));
          io.out('');
        }
        for (const feature of missing) {
          io.out(`${feature.id}  (its folder is missing; its decisions stand in the ledger: restore the folder, or withdraw the gates)`);
          const rows = feature.gates.map((g) => [gateLabel(g), g.status, g.drift.map(driftNote).join(', ')]);
          io.out(table(['gate', 'status', 'notes'], rows, '  '));
          io.out('');
        }
      }
      return drifted ? EXIT.problems : EXIT.ok;
    });
  },
};
