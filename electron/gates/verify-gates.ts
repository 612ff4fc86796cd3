/**
 * The gate half of `baton verify`: every approved hash against the disk (or the extracted
 * bundle). Baton gates come from the ledger's fold, Consort gates from each gates.json.
 */
import type { LedgerRecord, VerifyProblem, VerifyReport } from '../../shared/ledger';
import type { Gate, ProjectView } from '../../shared/model';
import { projectPath } from './files';
import { batonFeatureGates, batonGate, foreignGate } from './gate-view';
import { featureSites, type FeatureSite } from './site';
import { foldGates } from './state';

type GateReport = VerifyReport['gates'][number];

const gateLabel = (gate: Gate): string => (gate.story ? `${gate.name} gate of ${gate.story}` : `${gate.name} gate`);

const problemsOf = (site: FeatureSite, feature: string, gate: Gate): VerifyProblem[] => {
  const file = (name: string): string => projectPath(site.root, site.featureDir ?? site.expectedDir, name);
  const label = gateLabel(gate);
  const problems: VerifyProblem[] = gate.drift.map((d) => ({
    file: file(d.artifact),
    message:
      d.expected === null
        ? `added after the ${label} was approved and never approved itself; approve the gate again to cover it, or remove the file`
        : d.actual === null
          ? `missing; it was approved at ${gate.approvedAt ?? 'an unknown time'} by ${gate.approver ?? 'an unknown approver'} in the ${label} (expected ${d.expected}); restore it, or withdraw the gate`
          : `changed after the ${label} was approved (expected ${d.expected}, found ${d.actual}); restore the approved content, or withdraw and re-approve the gate`,
  }));
  if (gate.status === 'approved' && gate.artifacts.length === 0) {
    // Fail closed: an approval that names no hashes binds nothing and cannot be checked.
    problems.push({ file: file('gates.json'), message: `the ${label} of ${feature} is approved but lists no artifact hashes, so nothing binds it to content` });
  }
  return problems;
};

const reportOf = (feature: string, gate: Gate): GateReport => {
  const references = gate.artifacts.filter((a) => a.kind === 'reference').map((a) => a.name);
  return {
    feature,
    ...(gate.story ? { story: gate.story } : {}),
    gate: gate.name,
    status: gate.status,
    drift: gate.drift,
    ...(references.length ? { references } : {}),
  };
};

/** One feature's gates as judged now: from the ledger's fold (Baton) or its gates.json (Consort). */
export interface JudgedFeature {
  readonly feature: string;
  readonly site: FeatureSite;
  readonly gates: readonly Gate[];
  /** False for a feature whose folder is gone but whose approvals stand in the ledger. */
  readonly shown: boolean;
}

/**
 * Every gate of every feature, re-hashed against the disk: the one judgement the view
 * (annotateGates), `baton verify` and the Problems list all use.
 */
export const judgeGates = async (view: ProjectView, records: readonly LedgerRecord[] | null): Promise<JudgedFeature[]> => {
  const siteOf = await featureSites(view);
  const folds = view.layout === 'baton' ? foldGates(records ?? []) : null;
  const found: JudgedFeature[] = [];
  for (const feature of view.features) {
    const site = await siteOf(feature.id);
    const gates = folds
      ? await batonFeatureGates(view, site, feature, folds, records ?? [])
      : await Promise.all(feature.gates.map((gate) => foreignGate(view, site, gate)));
    found.push({ feature: feature.id, site, gates, shown: true });
  }
  // A feature deleted after its gates were approved: its approvals still stand, against nothing.
  const shown = new Set(view.features.map((f) => f.id));
  for (const fold of folds?.values() ?? []) {
    if (shown.has(fold.feature)) continue;
    const site = await siteOf(fold.feature);
    found.push({ feature: fold.feature, site, gates: [await batonGate(site, fold.gate, fold.story, fold)], shown: false });
  }
  return found;
};

/** What `baton verify` reports of the judged gates, and the problems each one has. */
export const gateReport = (judged: readonly JudgedFeature[]): { gates: GateReport[]; problems: VerifyProblem[] } => ({
  gates: judged.flatMap(({ feature, gates }) => gates.map((gate) => reportOf(feature, gate))),
  problems: judged.flatMap(({ feature, site, gates }) => gates.flatMap((gate) => problemsOf(site, feature, gate))),
});

export const verifyGates = async (view: ProjectView, records: readonly LedgerRecord[] | null): Promise<{ gates: GateReport[]; problems: VerifyProblem[] }> =>
  gateReport(await judgeGates(view, records));
