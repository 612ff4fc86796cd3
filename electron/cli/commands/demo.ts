/**
 * `baton demo`: the whole enforced loop on the embedded database, offline, in a temporary copy of
 * resources/demo: items go RED → GREEN → REFACTOR, one needs a repair, one Driver edits a locked
 * test (caught and reverted), one Navigator test passes at once (rejected). Stops at acceptance.
 */
import { prepareDemo } from '../../engine/prepare-demo';
import { runFeature } from '../../engine/run-feature';
import { flag, JSON_OPTION, type Command } from '../command';
import { EXIT, UsageError } from '../exit-codes';
import { printJson } from '../io';
import { describeEvent, printSummary } from './run';

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
      const summary = await runFeature({
        root: demo.root,
        feature: demo.feature,
        until: 'acceptance',
        dataDir: demo.dataDir,
        onEvent: (e) => {
          if (events) io.out(JSON.stringify(e));
          else if (!json) {
            const line = describeEvent(e);
            if (line) io.err(line);
          }
        },
      });
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
