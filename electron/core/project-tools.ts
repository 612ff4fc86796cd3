/**
 * What the CLI does that no channel carries — start a project, inspect one, a feature's status,
 * export and sign the evidence, mend a torn ledger tail, prepare the demo, benchmark branch
 * providers, deploy a feature — as core functions, so a host imports nothing but core/ and shared/. A write is
 * refused by the same guard the channels use (shared/read-only.ts), in the same words.
 */
import { join } from 'node:path';
import type { LedgerRecord } from '../../shared/ledger';
import { err, ok, type Result } from '../../shared/result';
import { writableProject } from '../../shared/read-only';
import { benchBranches as runBranchBench, type BenchOptions, type BenchResult } from '../../bench/branches/branches';
import { DEFAULT_POSTGRES_URL_ENV } from '../branches/providers';
import { featureStatus as readFeatureStatus, type FeatureStatus } from '../engine/status';
import { prepareDemo as copyDemo, type PreparedDemo } from '../engine/prepare-demo';
import {
  exportBundle,
  Ledger,
  loadOrCreateSigningKey,
  loadSigningKey,
  rotateSigningKey,
  signHead,
  type ExportSummary,
  type HeadSignature,
  type SigningKey,
} from '../ledger';
import { readSettings } from '../project/read-settings';
import { replaceSettings } from '../project/write-settings';
import { emailOf } from '../../shared/approvers';
import { visible } from '../../shared/text-input';
import { initProject as writeProjectSettings, type InitOutcome } from '../project/init';
import { CI_KINDS, type CiKind } from '../project/ci-template';
import { loadProject } from './load-project';
import { dossierInfo, dossierPage } from './dossier-file';
import type { Feature } from '../../shared/model';
import { evidenceSummary } from '../gates/proof';
import { scenarioFromLedger } from '../engine/record-scenario';
import { parseScenario, type figuresSchema, type Scenario } from '../agents/scenario';
import type { z } from 'zod';
import type { Workbench } from './workbench';
import { deployProject, promoteProject, type DeployedFeature, type ShipOptions } from '../engine/ship-run';
import type { PromoteOutcome } from '../engine/promote';

export type { BenchOptions, BenchResult, DeployedFeature, FeatureStatus, ShipOptions, InitOutcome, PreparedDemo, PromoteOutcome };
export { CI_KINDS, DEFAULT_POSTGRES_URL_ENV };
export type { CiKind };
export { DEMO_APPROVER } from '../engine/prepare-demo';
export { inspectProject, type InspectReport } from './inspect-project';
export { smellThresholds } from './smell-settings';

const NO_PROJECT = 'No project is open. Open a project folder first.';

/** `baton init`: `.baton/project.json` with detected defaults, and an empty ledger. */
export function initProject(dir: string, options: { force?: boolean; ci?: CiKind } = {}): Promise<Result<InitOutcome>> {
  return writeProjectSettings(dir, options);
}

/** `baton status`: the feature's phase from its persisted snapshot, its items, open gates and evidence. Throws what it cannot read. */
export function featureStatus(root: string, feature?: string): Promise<FeatureStatus> {
  return readFeatureStatus(root, feature);
}

/** `baton export`: the open project's evidence as one review bundle; `sign` signs its head with this host's key. */
export async function exportProject(workbench: Workbench, options: { out: string; attestations: boolean; sign: boolean }): Promise<Result<ExportSummary>> {
  const view = workbench.project;
  if (!view) return err('no-project', NO_PROJECT);
  return exportBundle({
    artifactRoot: view.artifactRoot,
    layout: view.layout,
    projectName: view.name,
    out: options.out,
    attestations: options.attestations,
    ...(options.sign ? { signConfigDir: workbench.options.configDir } : {}),
    // The dossier reads Baton's ledger: a Consort project's bundle has no cycles to show.
    ...(view.layout === 'baton'
      ? { dossier: (records: readonly LedgerRecord[], head: string | null) => dossierPage(view.name, records, view.features, dossierInfo(records, head)) }
      : {}),
  });
}

/**
 * `baton sign`: a checkpoint of the ledger's head signed with this host's key (kept in its config
 * folder). `rotate` first retires that key (kept, so its checkpoints still count for this user) and
 * makes a new one. `trusted` says whether the signing key is on the project's trustedKeys.
 */
export async function signProject(
  workbench: Workbench,
  options: { rotate?: boolean } = {},
): Promise<Result<HeadSignature & { retired: string | null; trustedByProject: boolean }>> {
  const view = workbench.project;
  if (!view) return err('no-project', NO_PROJECT);
  const writable = writableProject(view, 'changes');
  if (!writable.ok) return writable;
  const { configDir } = workbench.options;
  let retired: string | null = null;
  let key: SigningKey;
  try {
    if (options.rotate) ({ retired, key } = await rotateSigningKey(configDir));
    else key = await loadOrCreateSigningKey(configDir);
  } catch (error) {
    return err(
      'invalid',
      `The signing key in ${configDir} cannot be read (${(error as Error).message}). Move it aside and run \`baton sign\` again to make a new one.`,
    );
  }
  const signed = await signHead(join(view.artifactRoot, 'ledger'), configDir, { key });
  const settings = await readSettings(view.artifactRoot);
  const listed = settings.ok ? (settings.value.settings.trustedKeys ?? []) : [];
  const trustedByProject = listed.some((entry) => (typeof entry === 'string' ? entry : entry.key) === key.publicKeyText);
  return ok({ ...signed, retired, trustedByProject });
}

export interface ListedKey {
  /** This user's public key (made now when `created`). */
  readonly key: string;
  readonly created: boolean;
  readonly email: string;
  /** False when approverKeys already listed it for that email. */
  readonly added: boolean;
  readonly file: string;
}

/**
 * `baton key`: this user's signing key (made on first use, in the config folder) listed under
 * `approverKeys` for the email `approver` names, in the open project's project.json: from then on
 * decisions as that email must be signed with it, and `baton verify` proves who made them.
 */
export async function listApproverKey(workbench: Workbench, approver: string): Promise<Result<ListedKey>> {
  const view = workbench.project;
  if (!view) return err('no-project', NO_PROJECT);
  const writable = writableProject(view, 'changes');
  if (!writable.ok) return writable;
  const email = emailOf(approver);
  if (email === null)
    return err(
      'invalid-request',
      `"${visible(approver)}" names no email: say who you are, e.g. --approver "Ada Lovelace <ada@example.com>". Nothing was changed.`,
    );
  const { configDir } = workbench.options;
  let key: SigningKey;
  let created: boolean;
  try {
    created = (await loadSigningKey(configDir)) === null;
    key = await loadOrCreateSigningKey(configDir);
  } catch (error) {
    return err(
      'invalid',
      `The signing key in ${configDir} cannot be read (${(error as Error).message}). Move it aside and run \`baton key\` again to make a new one.`,
    );
  }
  const read = await readSettings(view.artifactRoot);
  if (!read.ok) return read;
  const json = JSON.parse(read.value.text) as Record<string, unknown>;
  const keys = { ...(json.approverKeys as Record<string, string[]> | undefined) };
  const listedAs = Object.keys(keys).find((listed) => listed.trim().toLowerCase() === email) ?? email;
  const current = keys[listedAs] ?? [];
  const added = !current.includes(key.publicKeyText);
  if (added) {
    keys[listedAs] = [...current, key.publicKeyText];
    const saved = await replaceSettings(read.value.file, { ...json, approverKeys: keys });
    if (!saved.ok) return saved;
  }
  return ok({ key: key.publicKeyText, created, email, added, file: read.value.file });
}

/** `baton verify --repair-tail`: drops an incomplete final ledger line and records that `approver` did; then re-reads the project. */
export async function repairLedgerTail(workbench: Workbench, approver: string): Promise<Result<{ droppedBytes: number; record: LedgerRecord | null }>> {
  const view = workbench.project;
  if (!view) return err('no-project', NO_PROJECT);
  const writable = writableProject(view, 'repair');
  if (!writable.ok) return writable;
  const repaired = await Ledger.forArtifactRoot(view.artifactRoot).repairTail({ kind: 'person', id: approver });
  const reloaded = await workbench.reload();
  return reloaded.ok ? ok(repaired) : reloaded;
}

/** `baton deploy`: the orchestrator's deploy of a feature of the open project (engine/deploy.ts); refused on a read-only project. */
export function deployOpenProject(workbench: Workbench, options: Omit<ShipOptions, 'root'>): Promise<Result<DeployedFeature>> {
  return shipOpenProject(workbench, (root) => deployProject({ ...options, root }));
}

/** `baton promote`: the feature merged into its tier with the tier database migrated, or neither (engine/promote.ts); `dryRun`: the plan only. */
export function promoteOpenProject(workbench: Workbench, options: Omit<ShipOptions, 'root'> & { readonly dryRun?: boolean }): Promise<Result<PromoteOutcome>> {
  return shipOpenProject(workbench, (root) => promoteProject({ ...options, root }));
}

async function shipOpenProject<T>(workbench: Workbench, work: (root: string) => Promise<T>): Promise<Result<T>> {
  const view = workbench.project;
  if (!view) return err('no-project', NO_PROJECT);
  const writable = writableProject(view, 'runs');
  if (!writable.ok) return writable;
  try {
    const outcome = await work(view.root);
    const reloaded = await workbench.reload();
    return reloaded.ok ? ok(outcome) : reloaded;
  } catch (error) {
    return err('failed', error instanceof Error ? error.message : String(error));
  }
}

/**
 * `baton demo`: a fresh copy of the demo project with its spec, design and test_list gates approved
 * by the demo Product Owner; `fromRequest`: the feature only as an intake request; `mutation: false`:
 * no mutation testing of its GREENs (`"mutation": {"enabled": false}` in its project.json).
 */
export async function prepareDemo(options: { fromRequest?: boolean; mutation?: boolean; configDir?: string } = {}): Promise<PreparedDemo> {
  // The demo PO's approvals are signed with this user's key when they have one, like every decision they make in the Inbox.
  const signer = options.configDir ? await loadSigningKey(options.configDir).catch(() => null) : null;
  return copyDemo(undefined, {
    fromRequest: options.fromRequest === true,
    signer,
    ...(options.mutation === false ? { settings: { mutation: { enabled: false } } } : {}),
  });
}

/** `baton bench branches`: create times and read latency at depth on this machine's provider. */
export function benchBranches(options: BenchOptions): Promise<BenchResult> {
  return runBranchBench(options);
}

/** What a replay must reproduce: the items' final statuses and the loop's counts (the ledger's evidence summary). */
export type RunFigures = z.infer<typeof figuresSchema>;

/** `baton record-scenario`: a recorded run (a project or a review bundle) as a scripted scenario, with the figures it reached. */
export async function recordScenario(path: string, feature?: string): Promise<Result<{ scenario: Scenario; figures: RunFigures }>> {
  const loaded = await loadProject(path);
  if (!loaded.ok) return loaded;
  try {
    const { view, ledger, records } = loaded.value;
    if (!ledger) return err('invalid-request', `${path} is not a Baton project or bundle: only Baton's ledger records the turns a replay plays.`);
    const chosen = feature ? view.features.find((f) => f.id === feature) : view.features[0];
    if (!chosen)
      return err('not-found', `No feature ${feature ? `"${feature}" ` : ''}in ${path}. Features: ${view.features.map((f) => f.id).join(', ') || 'none'}.`);
    const scenario = await scenarioFromLedger(ledger, chosen.id);
    if (scenario.turns.length === 0) return err('invalid-request', `The ledger of ${path} records no turn of ${chosen.id}: run the feature first.`);
    const figures = runFigures(chosen, records);
    // The file carries what the recording reached, so a replay from it alone can be compared.
    return ok({ scenario: { recorded: figures, ...scenario }, figures });
  } finally {
    await loaded.value.dispose();
  }
}

/** The figures of a feature in a project as it now stands (after a replay). */
export async function projectFigures(path: string, feature: string): Promise<Result<RunFigures>> {
  const loaded = await loadProject(path);
  if (!loaded.ok) return loaded;
  try {
    const chosen = loaded.value.view.features.find((f) => f.id === feature);
    if (!chosen) return err('not-found', `No feature "${feature}" in ${path}.`);
    return ok(runFigures(chosen, loaded.value.records));
  } finally {
    await loaded.value.dispose();
  }
}

function runFigures(feature: Feature, records: readonly LedgerRecord[]): RunFigures {
  const s = evidenceSummary(feature, records);
  return {
    feature: feature.id,
    byStatus: { ...s.byStatus },
    repairs: s.repairs,
    violations: s.violations,
    rejectedRed: s.rejectedRed,
    escalations: s.escalations,
  };
}

export { parseScenario, type Scenario };
