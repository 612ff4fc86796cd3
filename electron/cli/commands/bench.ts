/**
 * `baton bench branches --provider pglite|postgres [--url U] [--size-mb 100] [--depth 8] [--json]`:
 * how fast database branches are made and whether reads slow down with depth, on this machine.
 */
import { redactText } from '../../core/branches-errors';
import type { BenchResult } from '../../core/project-tools';
import { projectTools } from '../core';
import { flag, JSON_OPTION, text, type Command } from '../command';
import { EXIT, UsageError } from '../exit-codes';
import { printError, printJson } from '../io';

const SYNOPSIS =
  'bench branches [--provider pglite|postgres] [--url U] [--size-mb 100] [--depth 8] [--samples 15] [--reads 10000] [--load N] [--load-kind cpu|sql] [--data-dir DIR] [--json]';

export const benchCommand: Command = {
  name: 'bench',
  synopsis: SYNOPSIS,
  summary: 'Benchmark database branches: cold and warm create times, read latency at depth',
  options: {
    ...JSON_OPTION,
    provider: { type: 'string', default: 'pglite' },
    url: { type: 'string' },
    'size-mb': { type: 'string', default: '100' },
    depth: { type: 'string', default: '8' },
    samples: { type: 'string', default: '15' },
    reads: { type: 'string', default: '10000' },
    /** Busy workers running while everything is measured (`cpu`: spinning processes; `sql`, postgres: sessions writing rows). */
    load: { type: 'string', default: '0' },
    'load-kind': { type: 'string', default: 'cpu' },
    /** pglite: where the throwaway branches go (to measure a particular disk); default a temp folder. */
    'data-dir': { type: 'string' },
  },
  async run(positionals, values, io) {
    if (positionals.length !== 1 || positionals[0] !== 'branches') throw new UsageError(`bench has one suite, branches: baton ${SYNOPSIS}`);
    const provider = text(values, 'provider');
    if (provider !== 'pglite' && provider !== 'postgres') throw new UsageError(`--provider must be pglite or postgres; got "${provider}".`);
    const json = flag(values, 'json');
    const loadKind = text(values, 'load-kind');
    if (loadKind !== 'cpu' && loadKind !== 'sql') throw new UsageError(`--load-kind must be cpu or sql; got "${loadKind}".`);
    if (loadKind === 'sql' && provider !== 'postgres') throw new UsageError('--load-kind sql needs --provider postgres (the load runs on its server).');
    const workers = Math.round(number(text(values, 'load'), 'load', 0));
    const { benchBranches, DEFAULT_POSTGRES_URL_ENV } = await projectTools();
    const url = text(values, 'url') ?? process.env[DEFAULT_POSTGRES_URL_ENV] ?? process.env.BATON_TEST_PG_URL;
    if (provider === 'postgres' && !url) {
      printError(
        io,
        {
          code: 'invalid',
          message: `The postgres benchmark needs an admin URL: pass --url postgresql://USER:PASSWORD@HOST:PORT/postgres or set ${DEFAULT_POSTGRES_URL_ENV}.`,
        },
        json,
      );
      return EXIT.problems;
    }
    const options = {
      provider,
      url,
      sizeMb: number(text(values, 'size-mb'), 'size-mb', 0.1),
      depth: Math.round(number(text(values, 'depth'), 'depth', 1)),
      samples: Math.round(number(text(values, 'samples'), 'samples', 1)),
      reads: Math.round(number(text(values, 'reads'), 'reads', 10)),
      load: { workers, kind: loadKind },
      log: (line: string) => io.err(`  ${line}`),
      ...(text(values, 'data-dir') ? { dataDir: text(values, 'data-dir') } : {}),
    } as const;
    let result: BenchResult;
    try {
      result = await benchBranches(options);
    } catch (cause) {
      printError(io, { code: 'failed', message: `The branch benchmark failed: ${redactText(cause instanceof Error ? cause.message : String(cause))}` }, json);
      return EXIT.problems;
    }
    if (json) printJson(io, result);
    else io.out(formatBench(result));
    return EXIT.ok;
  },
};

function number(value: string | undefined, name: string, min: number): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min) throw new UsageError(`--${name} takes a number of at least ${min}; got "${value}".`);
  return parsed;
}

export function formatBench(r: BenchResult): string {
  const size = r.parentBytes === null ? `${r.sizeMb} MB asked` : `${(r.parentBytes / 1024 / 1024).toFixed(0)} MB on disk`;
  const reads = r.readRatioAtDepth;
  const vs = r.coldVsTemplate;
  const load = r.load.workers > 0 ? `${r.load.workers} ${r.load.kind} worker(s)` : 'none';
  return [
    `branch benchmark: ${r.provider}, parent of ${r.rows.toLocaleString('en-US')} rows (${size}), ${r.cpus} CPUs`,
    `  load: ${load}; load average ${r.load.loadAverage.before} at the start, ${r.load.loadAverage.after} at the end${r.load.transactions === undefined ? '' : `; ${r.load.transactions} write transactions`}`,
    `  cold create: p50 ${r.create.cold.p50Ms} ms, p95 ${r.create.cold.p95Ms} ms (${r.create.cold.samples.length} samples)`,
    vs
      ? `  cold vs template copy: ${vs.ratio}x (goal ≤ ${vs.goal}: ${vs.met ? 'met' : 'not met'}); cold p50 ${vs.coldP50Ms} ms vs plain CREATE DATABASE … TEMPLATE p50 ${vs.templateP50Ms} ms, ${vs.pairs} interleaved pairs, 95% interval ${vs.interval95[0]}–${vs.interval95[1]}`
      : `  cold vs template copy: none for ${r.provider} (no server-side template copy to compare with)`,
    `  warm create: p50 ${r.create.warm.p50Ms} ms, p95 ${r.create.warm.p95Ms} ms (${r.create.warm.samples.length} samples)`,
    `  point read at depth ${reads.depth}: ${reads.ratio}x depth 0 (median ${reads.depthNMedianMs} ms vs ${reads.depth0MedianMs} ms, ${reads.readsPerBranch} alternating reads each)`,
    `    noise: 95% interval ${reads.interval95[0]}–${reads.interval95[1]} (±${reads.noisePct}%, goal < ${reads.noiseGoalPct}%: ${reads.noiseMet ? 'met' : 'not met'}); halves ${reads.halves[0]} / ${reads.halves[1]}`,
  ].join('\n');
}
