/**
 * `baton record-scenario <project|bundle>`: a recorded run as a scripted scenario file.
 * `baton replay <dir> --from <project|bundle|scenario.json>`: re-runs the feature on `<dir>` (the
 * project as it was before the recorded run) with every role played by the scripted agent, and
 * compares the result with the recording's figures (a recorded project's, or those record-scenario
 * wrote into the scenario file) — for bug reports, demos and regression tests.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunFigures, Scenario } from '../../core/project-tools';
import { projectTools } from '../core';
import { flag, JSON_OPTION, onePath, required, text, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { failed, withProject } from '../open-project';
import { endedWith, eventPrinter, parseUntil, printSummary, runToEnd } from './run';

export const recordScenarioCommand: Command = {
  name: 'record-scenario',
  synopsis: 'record-scenario <dir|bundle> [--feature F] [--out FILE] [--json]',
  summary: 'Turn a recorded run (its ledger) into a scripted scenario file that replays it',
  options: { ...JSON_OPTION, feature: { type: 'string' }, out: { type: 'string' } },
  async run(positionals, values, io) {
    const path = onePath(positionals, this.synopsis);
    const json = flag(values, 'json');
    const recorded = await (await projectTools()).recordScenario(path, text(values, 'feature'));
    if (!recorded.ok) return failed(io, recorded.error, json);
    const out = text(values, 'out');
    const body = `${JSON.stringify(recorded.value.scenario, null, 2)}\n`;
    if (out) {
      await writeFile(resolve(out), body);
      if (json) printJson(io, { file: resolve(out), turns: recorded.value.scenario.turns.length, figures: recorded.value.figures });
      else io.out(`Wrote ${recorded.value.scenario.turns.length} turns to ${resolve(out)}. Replay it with \`baton replay <project> --from ${out}\`.`);
    } else io.out(body.trimEnd());
    return EXIT.ok;
  },
};

/** The recording: a scenario file (with the figures it recorded, if any), or the scenario and figures of a recorded project or bundle. */
async function recording(from: string, feature: string | undefined): Promise<{ scenario: Scenario; figures: RunFigures | null } | { error: string }> {
  const { parseScenario, recordScenario } = await projectTools();
  const text = await readFile(from, 'utf8').catch(() => null);
  if (text !== null && text.trimStart().startsWith('{')) {
    try {
      const scenario = parseScenario(text, from);
      return { scenario, figures: scenario.recorded ?? null };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }
  const recorded = await recordScenario(from, feature);
  return recorded.ok ? recorded.value : { error: recorded.error.message };
}

const FIGURES = ['byStatus', 'repairs', 'violations', 'rejectedRed', 'escalations'] as const;

export function compareFigures(recorded: RunFigures, replayed: RunFigures): string[] {
  return FIGURES.filter((k) => JSON.stringify(sorted(recorded[k])) !== JSON.stringify(sorted(replayed[k]))).map(
    (k) => `${k}: recorded ${JSON.stringify(sorted(recorded[k]))}, replayed ${JSON.stringify(sorted(replayed[k]))}`,
  );
}

const sorted = (v: unknown): unknown =>
  v && typeof v === 'object'
    ? Object.fromEntries(
        Object.entries(v)
          .filter(([, n]) => n !== 0)
          .sort(([a], [b]) => a.localeCompare(b)),
      )
    : v;

/** Whether the replay matches the recording, or each difference; a scenario without figures says there was nothing to compare. */
const verdict = (compared: boolean, differences: readonly string[], from: string): string =>
  !compared
    ? `Not compared: ${from} records no figures of a run (a scenario written by hand). \`baton record-scenario --out FILE\` writes a scenario that carries them.`
    : differences.length
      ? `Replay differs from the recording:\n${differences.map((d) => `  ${d}`).join('\n')}`
      : 'Replay matches the recording: same item statuses, repairs, violations, rejected REDs and escalations.';

export const replayCommand: Command = {
  name: 'replay',
  synopsis: 'replay <dir> --from <dir|bundle|scenario.json> [--feature F] [--until <gate>|done] [--events] [--json]',
  summary: 'Re-run a recorded feature deterministically through the scripted agent and compare',
  options: { ...JSON_OPTION, from: { type: 'string' }, feature: { type: 'string' }, until: { type: 'string' }, events: { type: 'boolean', default: false } },
  async run(positionals, values, io) {
    const root = onePath(positionals, this.synopsis);
    const json = flag(values, 'json');
    const from = required(values, 'from', this.synopsis);
    const feature = text(values, 'feature');
    const until = parseUntil(text(values, 'until')) ?? 'acceptance';
    const found = await recording(resolve(from), feature);
    if ('error' in found) {
      if (json) printJson(io, { ok: false, error: { code: 'invalid-request', message: found.error } });
      io.err(`baton: ${found.error}`);
      return EXIT.problems;
    }
    const dir = await mkdtemp(join(tmpdir(), 'baton-replay-'));
    const file = join(dir, 'scenario.json');
    await writeFile(file, JSON.stringify(found.scenario));
    const run = { scenario: file, onEvent: eventPrinter(io, { json, events: flag(values, 'events') }) };
    try {
      return await withProject(
        root,
        json,
        io,
        async (session) => {
          const wanted = feature ?? found.figures?.feature;
          const ended = await runToEnd(session, { ...(wanted ? { feature: wanted } : {}), until });
          if (!ended.ok) return failed(io, ended.error, json);
          const summary = endedWith(io, json, ended.value);
          if (!summary) return EXIT.problems;
          const replayed = found.figures ? await (await projectTools()).projectFigures(root, summary.feature) : null;
          // Figures that cannot be read back are a difference too: nothing shows the replay matched.
          const differences =
            !found.figures || !replayed ? [] : replayed.ok ? compareFigures(found.figures, replayed.value) : [`replayed: ${replayed.error.message}`];
          if (json)
            printJson(io, {
              ...summary,
              recorded: found.figures,
              replayed: replayed?.ok ? replayed.value : null,
              matches: found.figures ? differences.length === 0 : null,
              differences,
            });
          else {
            printSummary(io, summary);
            io.out(verdict(found.figures !== null, differences, from));
          }
          return differences.length || summary.phase === 'escalated' || summary.blocked ? EXIT.problems : EXIT.ok;
        },
        undefined,
        { run },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
