/**
 * `baton run <dir>`: drive a feature from wherever it stopped — gates, then every item's cycle —
 * with the orchestrator running the tests itself. `baton status <dir>`: where a feature stands.
 */
import { GATE_NAMES, type GateName } from '../../../shared/ledger';
import { PROVIDER_KINDS, type ProviderKind } from '../../../shared/branches';
import type { RequestOf } from '../../../shared/contract';
import { err, ok, type Result } from '../../../shared/result';
import type { RunEvent, RunSummary } from '../../../shared/run';
import type { ProjectView, TestItem } from '../../../shared/model';
import { RunProgress } from './run-progress';
import type { HostSession } from '../../core/host-session';
import { projectTools } from '../core';
import type { RunEnd } from '../../core/run-session';
import { flag, JSON_OPTION, list, onePath, text, type Command } from '../command';
import { EXIT, UsageError } from '../exit-codes';
import { printJson, type Io } from '../io';
import { formatEvidence } from '../evidence-format';
import { failed, withProject } from '../open-project';

const RUN_OPTIONS = {
  ...JSON_OPTION,
  feature: { type: 'string' },
  until: { type: 'string' },
  agent: { type: 'string', multiple: true },
  provider: { type: 'string' },
  url: { type: 'string' },
  events: { type: 'boolean', default: false },
} as const;

export function parseUntil(value: string | undefined): GateName | 'done' | undefined {
  if (value === undefined) return undefined;
  if (value === 'done' || (GATE_NAMES as readonly string[]).includes(value)) return value as GateName | 'done';
  throw new UsageError(`--until takes a gate (${GATE_NAMES.join(', ')}) or done; got "${value}".`);
}

export function parseAgents(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const m = /^([a-zA-Z]+)=([\w-]+)$/.exec(pair);
    if (!m) throw new UsageError(`--agent takes role=adapter (e.g. driver=scripted); got "${pair}".`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

export function parseProvider(value: string | undefined): ProviderKind | undefined {
  if (value === undefined) return undefined;
  if ((PROVIDER_KINDS as readonly string[]).includes(value)) return value as ProviderKind;
  throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(', ')}; got "${value}".`);
}

/** A line for people following a run in a terminal (stderr), or null for events too chatty to print. */
export function describeEvent(e: RunEvent): string | null {
  switch (e.kind) {
    case 'run.started':
      return `run ${e.feature}`;
    case 'lifecycle.state':
      return `${e.feature}: ${e.state}`;
    case 'cycle.state':
      // Repairs show as the Driver's next GREEN attempt (turn.started); the totals print at the end.
      return `  ${e.item}: ${e.state}`;
    case 'item.status':
      return `  ${e.item} → ${e.status}`;
    // Items of parallel lanes interleave: every line names its item.
    case 'turn.started':
      return `    ${e.item ? `${e.item}: ` : ''}${e.role} ${e.step} attempt ${e.attempt}`;
    case 'runner.started':
      return `    ${e.item ? `${e.item}: ` : ''}runner: ${e.command}`;
    case 'waiting':
      return e.message;
    case 'run.blocked':
      return `blocked: ${e.message}`;
    case 'run.note':
      return e.message;
    default:
      return null;
  }
}

export function printSummary(io: Io, s: RunSummary): void {
  const statuses = Object.entries(s.items.byStatus)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  io.out(
    [
      `Feature ${s.feature}: ${s.phase}`,
      `Items: ${s.items.total} (${statuses || 'none'})`,
      `Repairs: ${s.repairs} · Lock violations caught: ${s.violations} · Tests rejected as no RED: ${s.rejectedRed}`,
      ...s.escalations.map((e) => `Escalated: ${e.item ?? '(feature)'} — ${e.reason}`),
      `Ledger head: ${s.ledgerHead ?? '(empty)'}`,
      `Stopped: ${s.stoppedAt}`,
    ].join('\n'),
  );
}

/**
 * Starts a run through `run:start` on an open session (refused there, as in every host) and waits
 * for it to end; Ctrl+C or SIGTERM asks `run:stop`, and the run stops at a safe point.
 */
export async function runToEnd(session: HostSession, request: RequestOf<'run:start'>): Promise<Result<RunEnd>> {
  const started = await session.call('run:start', request);
  if (!started.ok) return started;
  const stop = () => void session.call('run:stop', {});
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const end = await session.workbench.runEnded(started.value.runId);
    return end ? ok(end) : err('internal', `The run ${started.value.runId} was replaced by another before it ended.`);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** A run's event printer; `progress` is told the feature's test list once the project is open. */
export type EventPrinter = ((event: RunEvent) => void) & { readonly progress: RunProgress };

/**
 * Follows a run in a terminal: every event as a JSON line on stdout (--events), else a line for
 * people on stderr (not with --json), an item's first line saying which item of how many it is and,
 * once one has finished, about how long the rest will take.
 */
export function eventPrinter(io: Io, options: { json: boolean; events: boolean }): EventPrinter {
  const progress = new RunProgress();
  const print = (e: RunEvent) => {
    if (options.events) io.out(JSON.stringify(e));
    else if (!options.json) {
      const line = describeEvent(e);
      const note = progress.note(e);
      if (line) io.err(note ? `${line} (${note})` : line);
    }
  };
  return Object.assign(print, { progress });
}

/** The test list of the feature a run builds (`feature`, or the project's only one), for its progress lines. */
export const testListOf = (view: ProjectView | null, feature?: string): readonly TestItem[] =>
  (view?.features.find((f) => f.id === feature) ?? (feature === undefined && view?.features.length === 1 ? view.features[0] : undefined))?.testList ?? [];

/** The summary, or what the run threw (`run-failed`, or `failedCode`), word for word. */
export function endedWith(io: Io, json: boolean, end: RunEnd, failedCode: 'run-failed' | 'demo-failed' = 'run-failed'): RunSummary | null {
  if (end.summary) return end.summary;
  const message = end.error ?? `The run ended (${end.outcome}) without a summary.`;
  if (json) printJson(io, { ok: false, error: { code: failedCode, message } });
  io.err(`baton: ${message}`);
  return null;
}

export const runCommand: Command = {
  name: 'run',
  synopsis: 'run <dir> [--feature F] [--until <gate>|done] [--agent role=adapter ...] [--provider P] [--url U] [--events] [--json]',
  summary: 'Run the enforced loop for a feature, resuming where it stopped',
  options: RUN_OPTIONS,
  async run(positionals, values, io) {
    const root = onePath(positionals, this.synopsis);
    const json = flag(values, 'json');
    const until = parseUntil(text(values, 'until'));
    const agents = parseAgents(list(values, 'agent'));
    const provider = parseProvider(text(values, 'provider'));
    const url = text(values, 'url');
    const feature = text(values, 'feature');
    const run = {
      agents,
      ...(provider ? { provider } : {}),
      ...(url ? { postgresUrl: url } : {}),
      onEvent: eventPrinter(io, { json, events: flag(values, 'events') }),
    };
    // A Consort project or a review bundle is read, never run: `run:start` says so before anything starts.
    return withProject(
      root,
      json,
      io,
      async (session, view) => {
        run.onEvent.progress.items(testListOf(view, feature));
        const ended = await runToEnd(session, { ...(feature !== undefined ? { feature } : {}), ...(until ? { until } : {}) });
        if (!ended.ok) return failed(io, ended.error, json);
        const summary = endedWith(io, json, ended.value);
        if (!summary) return EXIT.problems;
        if (json) printJson(io, summary);
        else printSummary(io, summary);
        return summary.phase === 'escalated' || summary.blocked ? EXIT.problems : EXIT.ok;
      },
      undefined,
      { run },
    );
  },
};

export const statusCommand: Command = {
  name: 'status',
  synopsis: 'status <dir> [--feature F] [--json]',
  summary: 'Where a feature stands: phase, items by status, open gates, escalations',
  options: { ...JSON_OPTION, feature: { type: 'string' } },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    try {
      const feature = text(values, 'feature');
      const status = await (await projectTools()).featureStatus(onePath(positionals, this.synopsis), feature);
      if (json) printJson(io, status);
      else {
        printSummary(io, status);
        io.out(`Open gates: ${status.openGates.join(', ') || 'none'}`);
        if (status.interruptedPromote !== null)
          io.out(
            `Promote interrupted: a promotion stopped midway (promote.started #${status.interruptedPromote}); the next \`baton run\` or \`baton promote\` rolls it back first, then promotes.`,
          );
        io.out(formatEvidence(status.evidence));
      }
      return EXIT.ok;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (json) printJson(io, { ok: false, error: { code: 'status-failed', message } });
      io.err(`baton: ${message}`);
      return EXIT.problems;
    }
  },
};
