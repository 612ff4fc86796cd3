/**
 * `baton demo`: the whole enforced loop on the embedded database, offline, in a temporary copy of
 * resources/demo: items go RED → GREEN → REFACTOR, one needs a repair, one Driver edits a locked
 * test (caught and reverted), one Navigator test passes at once (rejected). Stops at acceptance.
 * The run goes through `run:start`, as `baton run` and the workbench's Run button do.
 */
import { hostDefaults, openHostSession } from '../../core/host-session';
import { prepareDemo } from '../../core/project-tools';
import type { RunSummary } from '../../../shared/run';
import { flag, JSON_OPTION, type Command } from '../command';
import { EXIT, UsageError } from '../exit-codes';
import { printJson, type Io } from '../io';
import { endedWith, eventPrinter, printSummary, runToEnd } from './run';

/** The demo project run to acceptance on its own data folder; null when it failed (said already). */
async function runDemo(io: Io, json: boolean, events: boolean, demo: { root: string; feature: string; dataDir: string }): Promise<RunSummary | null> {
  const run = { dataDir: demo.dataDir, onEvent: eventPrinter(io, { json, events }) };
  const opened = await openHostSession(demo.root, { ...hostDefaults('cli'), run });
  if (!opened.ok) throw new Error(opened.error.message);
  const { session } = opened.value;
  try {
    const ended = await runToEnd(session, { feature: demo.feature, until: 'acceptance' });
    if (!ended.ok) throw new Error(ended.error.message);
    return endedWith(io, json, ended.value, 'demo-failed');
  } finally {
    await session.close();
  }
}

export const demoCommand: Command = {
  name: 'demo',
  synopsis: 'demo [--json] [--events] [--no-run]',
  summary: 'Run the demo project end to end on the embedded database (offline); --no-run only prepares it',
  options: { ...JSON_OPTION, events: { type: 'boolean', default: false }, 'no-run': { type: 'boolean', default: false } },
  async run(positionals, values, io) {
    if (positionals.length > 1) throw new UsageError('demo takes no folder: it copies resources/demo to a temporary folder.');
    const json = flag(values, 'json');
    const events = flag(values, 'events');
    try {
      if (!json) io.err('baton demo: copying the demo project and approving its spec, design and test_list gates as the demo Product Owner…');
      const demo = await prepareDemo();
      if (flag(values, 'no-run')) {
        if (json) printJson(io, { project: demo.root, feature: demo.feature, dataDir: demo.dataDir });
        else io.out(demo.root);
        return EXIT.ok;
      }
      if (!json) io.err(`baton demo: project at ${demo.root}`);
      const summary = await runDemo(io, json, events, demo);
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
          escalations: summary.escalations,
        });
      } else {
        printSummary(io, summary);
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
