/**
 * `baton run`: drive a feature's lifecycle (and its items' cycles) from wherever it stopped.
 * The lifecycle waits at each gate until the ledger says approved or rejected; `until` stops the
 * run on reaching a gate (or done). Every machine snapshot is persisted after every transition.
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { fromPromise } from 'xstate';
import type { GateName } from '../../shared/ledger';
import type { ProviderKind } from '../../shared/branches';
import type { RunEvent, RunSummary, LifecycleStateName } from '../../shared/run';
import { agentsFor } from './run-agents';
import { openBranchService } from '../branches/service';
import { GATES_BEFORE } from '../gates/frozen';
import { Ledger } from '../ledger';
import { LIFECYCLE_VERSION, lifecycleMachine, type GateDecision, type GateWait, type WorkInput } from '../orchestrator/lifecycle-machine';
import { readProject } from '../project';
import { readSettings } from '../project/read-settings';
import type { ProjectSettings } from '../project/settings';
import { defaultConfigDir } from '../platform/config-dir';
import { defaultDataDir, projectDataDir } from '../platform/data-dir';
import { packageRoot } from '../platform/package-root';
import type { TestItem } from '../../shared/model';
import { escalationsOf, foldEscalations } from '../gates/escalations';
import { buildItems } from './build';
import { decidedGate, DESIGN_STATE, GATE_STATE, REBUILT_FROM, storiesOf, waitForGate } from './run-resume';
import { takeUpRejections } from './revise';
import { amendmentToRerun } from '../gates/amendments';
import { designStep, type DesignStepName } from './design-steps';
import type { CycleDeps } from './cycle-deps';
import { excludeFromCommits } from './git';
import { readSnapshot, runPersisted } from './persisted-machine';
import { cleanTurns, takeRunLock } from './run-housekeeping';
import { StateStore } from './state-store';
import { summarize } from './summary';
import { removeLeftoverThrowaways } from './test-run';
import { shipSteps, type ShipSteps } from './ship-steps';
import { alignFeatureDatabase } from './feature-db';
import { dropStoryExperiment, mergeStoryExperiments, storyExperiments } from './story-experiments';
import { frozenGuard, type FrozenGuard } from './frozen-guard';
import { verifyMergedFeature } from './verify-feature';
import { mutationQueue } from '../mutation/queue';
import { postWebhook, runFailed, runStopped, webhookUrl, type WebhookMessage } from '../notify/webhook';
import { gatherLaneDependencies } from './dependencies';
import { baselineStore, laneSite, parallelOf, runLanes, storyOrder, type RunLanes } from './build-lanes';

export interface RunOptions {
  readonly root: string;
  readonly feature?: string;
  /** Stop on reaching this gate (before it is decided), or at `done`. Default: done. */
  readonly until?: GateName | 'done';
  /** role → adapter, overriding `agents` in project.json. */
  readonly agents?: Readonly<Record<string, string>>;
  /** Replay: every role is the scripted agent playing this scenario file (an absolute path), whatever project.json says. */
  readonly scenario?: string;
  readonly provider?: ProviderKind;
  readonly postgresUrl?: string;
  readonly dataDir?: string;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: RunEvent) => void;
  /** How often a waiting gate re-reads the ledger. */
  readonly gatePollMs?: number;
}

const BATON_ROOT = packageRoot(import.meta.url);

/** The project's settings; a missing or invalid project.json stops the run with the reader's message. */
export async function loadSettings(root: string): Promise<ProjectSettings> {
  const read = await readSettings(join(root, '.baton'));
  if (!read.ok) throw new Error(read.error.message);
  return read.value.settings;
}

/**
 * Runs the feature until it stops, then tells the project's webhook where it stopped — or that it
 * stopped on an error once it held the run lock (a refusal before that is the caller's to say, and
 * a stop someone asked for is no news). A failure to reach the webhook is a note, never the run's failure.
 */
export async function runFeature(options: RunOptions): Promise<RunSummary> {
  let started: string | null = null;
  let summary: RunSummary;
  try {
    summary = await runUntilStop(options, (feature) => (started = feature));
  } catch (error) {
    if (started !== null && !options.signal?.aborted) await notify(options, runFailed(options.root, started));
    throw error;
  }
  await notify(options, runStopped(summary));
  return summary;
}

async function notify(options: RunOptions, message: WebhookMessage): Promise<void> {
  const settings = await loadSettings(options.root).catch(() => null);
  const target = webhookUrl(settings?.notify?.webhook);
  const problem = target === null ? null : 'error' in target ? target.error : await postWebhook(target.url, message);
  if (problem) options.onEvent?.({ kind: 'run.note', message: `Not notified: ${problem}.` });
}

async function runUntilStop(options: RunOptions, locked: (feature: string) => void): Promise<RunSummary> {
  const root = options.root;
  const emit = options.onEvent ?? (() => undefined);
  const settings = await loadSettings(root);
  const read = await readProject(root);
  if (!read.ok) throw new Error(read.error.message);
  const feature = options.feature ? read.value.features.find((f) => f.id === options.feature) : read.value.features[0];
  if (!feature)
    throw new Error(
      options.feature
        ? `No feature "${options.feature}" in ${root}/.baton/features. Features: ${read.value.features.map((f) => f.id).join(', ') || 'none'}.`
        : `No feature in ${root}/.baton/features: write a feature spec first.`,
    );
  const releaseRunLock = await takeRunLock(root, (message) => emit({ kind: 'run.note', message }));
  locked(feature.id);
  const ledger = Ledger.forArtifactRoot(join(root, '.baton'));
  const store = StateStore.forProject(root, feature.id);
  const runId = new Date().toISOString();
  const frozen = frozenGuard(root, feature.id, ledger, emit);
  // Frozen means frozen from the first moment: a drifted gate stops the run before anything starts.
  const saved = await readSnapshot(store, 'lifecycle', lifecycleMachine, LIFECYCLE_VERSION).catch(() => null);
  const savedState = typeof saved?.value === 'string' && saved.value in GATES_BEFORE ? (saved.value as LifecycleStateName) : 'intake';
  // An escalated design step resumes at that step, so only the gates before it must hold.
  const failedStep = (saved?.context as { failedStep?: string | null } | undefined)?.failedStep ?? null;
  const resumeAt = savedState === 'escalated' && failedStep !== null && failedStep in DESIGN_STATE ? DESIGN_STATE[failedStep]! : savedState;
  try {
    await frozen.check(resumeAt, 'start', null);
  } catch (error) {
    if (!frozen.blocked) {
      await releaseRunLock();
      throw error;
    }
    emit({ kind: 'run.started', runId, feature: feature.id, at: runId });
    const summary = await summarize(root, feature.id, resumeAt, ledger, frozen.blocked);
    await releaseRunLock();
    return summary;
  }
  const signal = options.signal ? AbortSignal.any([options.signal, frozen.signal]) : frozen.signal;
  const branches = await openBranchService({
    root,
    settings,
    ledger,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.postgresUrl ? { postgresUrl: options.postgresUrl } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  // Mutation runs use the branches below: the run waits for them before closing them.
  const mutation = mutationQueue();
  try {
    await excludeFromCommits(root, ['/node_modules', ...(settings.reportPath ? [`/${settings.reportPath}`] : [])]);
    await removeLeftoverThrowaways(branches.provider, branches.prefix);
    await alignFeatureDatabase(root, branches, feature.id, ledger);
    const realRoot = await realpath(root);
    const dataDir = options.dataDir ?? projectDataDir(realRoot, defaultDataDir(process.env, process.platform, realRoot));
    const turnsDir = join(dataDir, 'turns');
    await cleanTurns(root, turnsDir);
    // Agents' commands and test runs see neither Baton's config (its signing key) and data folders nor its installation.
    const hide = [defaultConfigDir(), dataDir, BATON_ROOT];
    const agents = await agentsFor(
      root,
      options.scenario ? { ...settings, scenario: options.scenario, agents: {} } : settings,
      options.scenario ? {} : (options.agents ?? {}),
      hide,
    );
    const lanes = runLanes(root, feature.id, () => items());
    const baseline = baselineStore(store, lanes);
    const experiments = storyExperiments(branches, feature.id, settings.defaultBranch, lanes.stackable);
    const deps: CycleDeps = {
      root,
      settings,
      feature: feature.id,
      ledger,
      provider: branches.provider,
      experiment: experiments,
      lane: async (story) => (await lanes.lanes()).find((lane) => lane.includes(story)) ?? [story],
      agent: (role) => {
        const agent = agents.get(role);
        if (!agent) throw new Error(`No agent for the ${role} role: set agents.${role} in .baton/project.json.`);
        return agent;
      },
      turnsDir,
      runSite: laneSite(dataDir)(0),
      dependenciesDir: join(dataDir, 'dependencies', feature.id),
      hide,
      baseline,
      emit,
      signal,
      guard: (step, item) => frozen.check('building', step, item),
      mutation,
    };
    emit({ kind: 'run.started', runId, feature: feature.id, at: runId });
    // The test list is read when the build starts: from an intake request, the Test Strategist writes it during this run.
    const items = async (): Promise<readonly TestItem[]> => {
      const now = await readProject(root);
      return (now.ok ? now.value.features.find((f) => f.id === feature.id)?.testList : undefined) ?? feature.testList;
    };
    // Merging and dropping remove experiment pairs: the pairs known so far are looked up again.
    // Merged, the lanes' packages are gathered and the lanes tested together before anything after acceptance runs (verify-feature.ts).
    const accepted = async () => {
      experiments.forget();
      await mergeStoryExperiments(deps, branches, storyOrder(await items())).finally(() => experiments.forget());
      await gatherLaneDependencies(deps);
      await verifyMergedFeature(deps, branches);
    };
    const drop = (story: string) => dropStoryExperiment(branches, feature.id, story).finally(() => experiments.forget());
    const ship = shipSteps({ root, settings, feature: feature.id, ledger, branches, dataDir, hide, signal }, emit);
    const build = { lanes, siteFor: laneSite(dataDir), start: baseline.start };
    const phase = await driveLifecycle(deps, store, items, build, settings, ledger, options, frozen, { ...ship, accepted, drop });
    await store.flush(); // the summary reads the lifecycle's last snapshot (why a step failed)
    return await summarize(root, feature.id, phase, ledger, frozen.blocked);
  } finally {
    await mutation.settle();
    await branches.close().catch(() => undefined);
    await store.flush();
    await releaseRunLock();
  }
}

/** The lifecycle state a gate's approval leads to: the work that builds on it. */
const AFTER_GATE: Readonly<Record<GateName, LifecycleStateName>> = {
  spec: 'designing',
  design: 'testListing',
  test_list: 'building',
  acceptance: 'deployGate',
  deploy: 'promoteGate',
  promote: 'promoting',
};

async function driveLifecycle(
  deps: CycleDeps,
  store: StateStore,
  items: () => Promise<Parameters<typeof buildItems>[2]>,
  build: { readonly lanes: RunLanes; readonly siteFor: ReturnType<typeof laneSite>; readonly start: () => Promise<void> },
  settings: ProjectSettings,
  ledger: Ledger,
  options: RunOptions,
  frozen: FrozenGuard,
  ship: ShipSteps & { readonly accepted: () => Promise<void>; readonly drop: (story: string) => Promise<void> },
): Promise<LifecycleStateName> {
  const pollMs = options.gatePollMs ?? 1000;
  let rerun = false;
  const noop = fromPromise<void, WorkInput>(async () => undefined);
  const designWork = (step: DesignStepName) => fromPromise<void, WorkInput>(({ input }) => designStep(deps, step, input.feedback));
  const machine = lifecycleMachine.provide({
    actors: {
      intake: noop,
      specify: designWork('specify'),
      design: designWork('design'),
      listTests: designWork('listTests'),
      promote: fromPromise<void, WorkInput>(() => ship.promote()),
      build: fromPromise(async () => {
        const list = await items();
        // A story sent back at acceptance runs its items again with the note; a sent-back deploy gate waits for a new deploy.
        await takeUpRejections(ledger, {
          feature: deps.feature,
          gates: ['acceptance', 'deploy', 'promote'],
          items: list,
          stories: await storiesOf(deps.root, deps.feature),
          drop: ship.drop,
        });
        await build.start();
        const built = await buildItems(deps, store, list, {
          repairBudget: settings.repairBudget,
          lanes: await build.lanes.refresh(),
          parallel: parallelOf(settings),
          siteFor: build.siteFor,
        });
        // The acceptance gate opens on every GREEN's mutation score: the ones still running are waited for.
        await deps.mutation?.drain(deps);
        // A test amendment approved during the build: acceptance sends the build back at once (waitForGate), so `until` does not stop there.
        rerun = amendmentToRerun((await ledger.read()).records, deps.feature) !== null;
        return { escalated: built.escalated };
      }),
      awaitGate: fromPromise<GateDecision, GateWait>(async ({ input, signal }) => {
        const decision = await waitForGate(ledger, input, pollMs, signal, deps);
        // An approval whose files changed since is no approval to build on.
        if (decision.decision === 'approved') await frozen.check(AFTER_GATE[input.gate], `gate:${input.gate}`, null);
        // Accepted: the stories' experiments are merged into the feature branch and its whole suite
        // verified (a failure escalates the run with what to do), and the orchestrator deploys it
        // before the deploy gate opens, so its evidence is there to decide on.
        if (decision.decision === 'approved' && input.gate === 'acceptance') await ship.accepted();
        if (decision.decision === 'approved' && input.gate === 'acceptance' && ship.deploy) await ship.deploy();
        return decision;
      }),
    },
  });
  const stopAt = new Set<string>(['done', 'abandoned', 'escalated', ...(options.until && options.until !== 'done' ? [GATE_STATE[options.until]] : [])]);
  const end = await runPersisted({
    machine,
    version: LIFECYCLE_VERSION,
    store,
    name: 'lifecycle',
    input: { feature: deps.feature },
    signal: deps.signal,
    onState: (state) => deps.emit({ kind: 'lifecycle.state', feature: deps.feature, state: state as LifecycleStateName }),
    stopAt: (state) => stopAt.has(state) && !(rerun && REBUILT_FROM.has(state)),
    started: async (actor) => {
      const state = String(actor.getSnapshot().value);
      if (state === 'escalated') await resumeEscalated(actor, ledger, deps.feature, await items());
      // `until` stops on reaching a gate; a run that starts at that gate already decided (sent back with a note) goes on past it.
      else if (stopAt.has(state) && (await decidedGate(ledger, deps.feature, state)))
        while (String(actor.getSnapshot().value) === state && !deps.signal?.aborted) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  });
  return String(end.value) as LifecycleStateName;
}

/**
 * A run that starts where the last one escalated: once a person has decided every open escalation
 * (in the inbox or with `baton resolve`), an `abandon` ends the feature and otherwise the build
 * resumes (retried items run their next round, skipped ones are set aside). With any escalation
 * still undecided the run stays where it is.
 */
async function resumeEscalated(
  actor: { send(event: { type: 'RESUME' } | { type: 'ABANDON'; reason: string }): void },
  ledger: Ledger,
  feature: string,
  items: readonly TestItem[],
): Promise<void> {
  const fold = foldEscalations((await ledger.read()).records);
  const states = items.map((item) => ({ item: item.id, ...escalationsOf(fold, feature, item.id) }));
  if (states.some((s) => s.open)) return;
  const abandon = states.find((s) => s.decided?.decision === 'abandon');
  if (abandon)
    actor.send({ type: 'ABANDON', reason: `Abandoned over ${abandon.item} by ${abandon.decided!.by}: ${abandon.decided!.note ?? 'no reason given'}` });
  else actor.send({ type: 'RESUME' });
}
