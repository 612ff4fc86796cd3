/**
 * `baton bench branches --provider pglite|postgres [--url U] [--size-mb 100] [--depth 8] [--json]`:
 * how fast database branches are made and whether reads slow down with depth, on this machine.
 */
import { redactText } from '../../core/branches-errors';
import { benchBranches, DEFAULT_POSTGRES_URL_ENV, type BenchResult } from '../../core/project-tools';
import { flag, JSON_OPTION, text, type Command } from '../command';
import { EXIT, UsageError } from '../exit-codes';
import { printError, printJson } from '../io';

const SYNOPSIS = 'bench branches [--provider pglite|postgres] [--url U] [--size-mb 100] [--depth 8] [--samples 5] [--reads 2000] [--data-dir DIR] [--json]';

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
    samples: { type: 'string', default: '5' },
    reads: { type: 'string', default: '2000' },
    /** pglite: where the throwaway branches go (to measure a particular disk); default a temp folder. */
    'data-dir': { type: 'string' },
  },
  async run(positionals, values, io) {
    if (positionals.length !== 1 || positionals[0] !== 'branches') throw new UsageError(`bench has one suite, branches: baton ${SYNOPSIS}`);
    const provider = text(values, 'provider');
    if (provider !== 'pglite' && provider !== 'postgres') throw new UsageError(`--provider must be pglite or postgres; got "${provider}".`);
    const json = flag(values, 'json');
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
  return [
    `branch benchmark: ${r.provider}, parent of ${r.rows.toLocaleString('en-US')} rows (${size})`,
    `  cold create: p50 ${r.create.cold.p50Ms} ms, p95 ${r.create.cold.p95Ms} ms (${r.create.cold.samples.length} samples)`,
    `  warm create: p50 ${r.create.warm.p50Ms} ms, p95 ${r.create.warm.p95Ms} ms (${r.create.warm.samples.length} samples)`,
    `  point read at depth ${r.readRatioAtDepth.depth}: ${r.readRatioAtDepth.ratio}x depth 0 (median ${r.readRatioAtDepth.depthNMedianMs} ms vs ${r.readRatioAtDepth.depth0MedianMs} ms)`,
  ].join('\n');
}
