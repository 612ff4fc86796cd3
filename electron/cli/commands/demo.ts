/**
 * `baton demo`: the whole enforced loop on the embedded database, offline, in a temporary copy of
 * resources/demo: items go RED → GREEN → REFACTOR, one needs a repair, one Driver edits a locked
 * test (caught and reverted), one Navigator test passes at once (rejected). Stops at acceptance.
 * The run goes through `run:start`, as `baton run` and the workbench's Run button do.
 */
import { hostSessions, projectTools } from '../core';
import type { GateName } from '../../../shared/ledger';
import type { RunEvent, RunSummary } from '../../../shared/run';
import type { HostSession } from '../../core/host-session';
import { RECORD_TYPES } from '../../../shared/record-types';
import { flag, JSON_OPTION, type Command } from '../command';
import { EXIT, UsageError } from '../exit-codes';
import { printJson, type Io } from '../io';
import { closeSession } from '../open-project';
import { endedWith, printSummary, runToEnd, testListOf, eventPrinter } from './run';

const DESIGN_GATES: readonly string[] = ['spec', 'design', 'test_list'];

/** The demo Product Owner's scripted approval of a design gate the run waits at: exactly the hashes the evidence shows, through the Inbox's channels. */
async function approveAsDemo(session: HostSession, io: Io, json: boolean, feature: string, gate: GateName, story?: string): Promise<void> {
  const ref = { feature, gate, ...(story ? { story } : {}) };
  const evidence = await session.call('gates:evidence', ref);
  if (!evidence.ok) return void io.err(`baton demo: could not read the ${gate} gate: ${evidence.error.message}`);
  const expect = Object.fromEntries(evidence.value.artifacts.flatMap((a) => (a.sha256 ? [[a.name, a.sha256]] : [])));
  const approved = await session.call('gates:approve', {
    ...ref,
    approver: (await projectTools()).DEMO_APPROVER,
    expect,
    comment: 'Approved by the demo script; a real project waits for a person here.',
  });
  const which = `the ${gate} gate${story ? ` of ${story}` : ''}`;
  if (!approved.ok) io.err(`baton demo: the demo Product Owner could not approve ${which}: ${approved.error.message}`);
  else if (!json) io.err(`baton demo: the demo Product Owner approved ${which} (${Object.keys(expect).length} artifacts).`);
}

/** The demo Product Owner's scripted approval of a test amendment the Navigator proposed, through the Inbox's channel. */
async function approveAmendmentAsDemo(session: HostSession, io: Io, json: boolean, feature: string, amendment: string, item: string | null): Promise<void> {
  const decided = await session.call('amendments:decide', {
    feature,
    amendment,
    decision: 'approve',
    approver: (await projectTools()).DEMO_APPROVER,
    note: 'Approved by the demo script; a real project waits for a person here.',
  });
  if (!decided.ok) io.err(`baton demo: the demo Product Owner could not approve the amendment of ${item}: ${decided.error.message}`);
  else if (!json) io.err(`baton demo: the demo Product Owner approved the Navigator's amendment of ${item}'s test; ${item} runs again against it.`);
}

/** Whether an approved amendment of the feature still waits for the run that re-runs its item. */
async function amendmentWaiting(session: HostSession, feature: string): Promise<boolean> {
  const view = await session.call('project:reload', {});
  return view.ok && (view.value?.features.find((f) => f.id === feature)?.amendments.some((a) => a.rerun === 'waiting') ?? false);
}

/**
 * `--ship`: the last mile, after the build stops at acceptance. The demo Product Owner accepts
 * every story; the run deploys (project.json's deploy: the service on a throwaway copy of the
 * feature's database, its health check and smoke test), the demo PO approves the deploy gate on
 * that evidence, and the run promotes: main gets the merge and its database the migrations.
 */
async function shipDemo(io: Io, json: boolean, events: boolean, demo: { root: string; feature: string; dataDir: string }): Promise<RunSummary | null> {
  const print = eventPrinter(io, { json, events });
  let session: HostSession | null = null;
  const onEvent = (event: RunEvent): void => {
    print(event);
    if (session && event.kind === 'waiting' && (event.gate === 'deploy' || event.gate === 'promote'))
      void approveAsDemo(session, io, json, event.feature, event.gate);
  };
  const { hostDefaults, openHostSession } = await hostSessions();
  const opened = await openHostSession(demo.root, { ...hostDefaults('cli'), run: { dataDir: demo.dataDir, onEvent } });
  if (!opened.ok) throw new Error(opened.error.message);
  session = opened.value.session;
  try {
    const stories = opened.value.project.features.find((f) => f.id === demo.feature)?.stories ?? [];
    for (const story of stories) await approveAsDemo(session, io, json, demo.feature, 'acceptance', story.id);
    let ended = await runToEnd(session, { feature: demo.feature, until: 'done' });
    if (!ended.ok) throw new Error(ended.error.message);
    // A ship step that stopped the run with no item escalated (seen only on a loaded machine, cause not
    // yet found: issue 32): said on stderr with its reason, then run again once, as a person would.
    const first = ended.value.summary;
    if (first?.phase === 'escalated' && first.escalations.length === 0) {
      io.err(`baton demo: the run stopped after the build with nothing escalated (${first.stoppedAt}); running it again once.`);
      ended = await runToEnd(session, { feature: demo.feature, until: 'done' });
      if (!ended.ok) throw new Error(ended.error.message);
    }
    return endedWith(io, json, ended.value, 'demo-failed');
  } finally {
    await closeSession(session, io);
  }
}

/** The demo project run to acceptance on its own data folder; null when it failed (said already). */
async function runDemo(
  io: Io,
  json: boolean,
  events: boolean,
  demo: { root: string; feature: string; dataDir: string },
  approveDesign: boolean,
): Promise<RunSummary | null> {
  const print = eventPrinter(io, { json, events });
  let session: HostSession | null = null;
  const decisions: Promise<void>[] = [];
  const onEvent = (event: RunEvent): void => {
    print(event);
    if (approveDesign && session && event.kind === 'waiting' && DESIGN_GATES.includes(event.gate))
      void approveAsDemo(session, io, json, event.feature, event.gate as GateName);
    if (approveDesign && session && event.kind === 'recorded' && event.type === RECORD_TYPES.testAmendment)
      decisions.push(approveAmendmentAsDemo(session, io, json, demo.feature, event.hash, event.item));
  };
  const run = { dataDir: demo.dataDir, onEvent };
  const { hostDefaults, openHostSession } = await hostSessions();
  const opened = await openHostSession(demo.root, { ...hostDefaults('cli'), run });
  if (!opened.ok) throw new Error(opened.error.message);
  session = opened.value.session;
  print.progress.items(testListOf(opened.value.project, demo.feature));
  try {
    let ended = await runToEnd(session, { feature: demo.feature, until: 'acceptance' });
    // A test amendment approved during the build sends it back: the amended item runs again before acceptance.
    await Promise.all(decisions);
    if (ended.ok && ended.value.summary?.phase === 'acceptance' && (await amendmentWaiting(session, demo.feature))) {
      if (!json) io.err('baton demo: running again: the amended item runs RED and GREEN against its amended test before acceptance.');
      ended = await runToEnd(session, { feature: demo.feature, until: 'acceptance' });
    }
    if (!ended.ok) throw new Error(ended.error.message);
    return endedWith(io, json, ended.value, 'demo-failed');
  } finally {
    await closeSession(session, io);
  }
}

export const demoCommand: Command = {
  name: 'demo',
  synopsis: 'demo [--from-request] [--ship] [--no-mutation] [--json] [--events] [--no-run]',
  summary:
    'Run the demo project end to end on the embedded database (offline), to acceptance; --ship goes on through deploy and promote to main; --from-request starts from a one-paragraph request; --no-mutation skips mutation testing of each GREEN; --no-run only prepares it',
  options: {
    ...JSON_OPTION,
    events: { type: 'boolean', default: false },
    'no-run': { type: 'boolean', default: false },
    'from-request': { type: 'boolean', default: false },
    ship: { type: 'boolean', default: false },
    'no-mutation': { type: 'boolean', default: false },
  },
  async run(positionals, values, io) {
    if (positionals.length > 1) throw new UsageError('demo takes no folder: it copies resources/demo to a temporary folder.');
    const json = flag(values, 'json');
    const events = flag(values, 'events');
    try {
      const fromRequest = flag(values, 'from-request');
      if (!json)
        io.err(
          fromRequest
            ? 'baton demo: copying the demo project without its feature and taking in its one-paragraph request…'
            : 'baton demo: copying the demo project and approving its spec, design and test_list gates as the demo Product Owner…',
        );
      const demo = await (
        await projectTools()
      ).prepareDemo({ fromRequest, mutation: !flag(values, 'no-mutation'), configDir: (await hostSessions()).hostDefaults('cli').configDir });
      if (flag(values, 'no-run')) {
        if (json) printJson(io, { project: demo.root, feature: demo.feature, dataDir: demo.dataDir });
        else io.out(demo.root);
        return EXIT.ok;
      }
      if (!json) io.err(`baton demo: project at ${demo.root}`);
      const built = await runDemo(io, json, events, demo, fromRequest);
      const ship = flag(values, 'ship') && built?.phase === 'acceptance' && built.escalations.length === 0;
      if (ship && !json)
        io.err('baton demo: shipping: the demo Product Owner accepts every story; the run deploys, waits for the deploy gate and promotes to main…');
      const summary = ship ? await shipDemo(io, json, events, demo) : built;
      if (!summary) return EXIT.problems;
      if (json) {
        printJson(io, {
          project: summary.project,
          items: summary.items,
          repairs: summary.repairs,
          violations: summary.violations,
          rejectedRed: summary.rejectedRed,
          ledgerHead: summary.ledgerHead,
          phase: summary.phase,
          stoppedAt: summary.stoppedAt,
          escalations: summary.escalations,
        });
      } else {
        printSummary(io, summary);
        if (summary.phase === 'done') io.out(`\nShipped: main now holds the feature (git -C ${demo.root} log --oneline -3 main), its database migrated.`);
        io.out(`\nProject: ${demo.root}\nSee it: npx baton serve ${demo.root}   Check it: npx baton verify ${demo.root}`);
      }
      return summary.escalations.length ? EXIT.problems : EXIT.ok;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (json) printJson(io, { ok: false, error: { code: 'demo-failed', message } });
      io.err(`baton: ${message}`);
      return EXIT.problems;
    }
  },
};
