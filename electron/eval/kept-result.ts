/**
 * A finished run, as a later start (a resume, `--report-only`) keeps it: its `result.json`, but only
 * when the run's own ledger still says the same. The ledger's chain must verify and its last
 * `eval.run` record must hold the same figures for the same run; a result edited by hand, copied
 * from another run or left beside a damaged ledger is refused, naming the run and what differs, so
 * no report is ever made from figures its evidence does not back.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import { Ledger, verifyChain } from '../ledger';
import type { EvalRunKey, EvalRunResult } from './types';

/** `<out>/runs/<task>/<workflow>/<agent>/rep-<n>` */
export const runFolder = (out: string, key: Omit<EvalRunKey, 'seed'>): string => join(out, 'runs', key.task, key.workflow, key.agent, `rep-${key.rep}`);

/** The figures a run's `eval.run` record holds: its result without where it lies and the harness's own time. */
export function recordedFigures(result: EvalRunResult): Omit<EvalRunResult, 'folder' | 'ledger' | 'harnessMs'> {
  const { folder: _folder, ledger: _ledger, harnessMs: _harness, ...figures } = result;
  return figures;
}

/** A value as its JSON says it, field by field (an absent field and an undefined one are the same). */
const fieldsOf = (value: unknown): Record<string, unknown> => {
  const plain: unknown = JSON.parse(JSON.stringify(value));
  return typeof plain === 'object' && plain !== null ? Object.fromEntries(Object.entries(plain)) : {};
};

/** The run's kept result; null when it has none yet (never run, or killed before its result was written). */
export async function readKeptResult(out: string, key: Omit<EvalRunKey, 'seed'>): Promise<EvalRunResult | null> {
  const folder = runFolder(out, key);
  const file = join(folder, 'result.json');
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const refuse = (why: string): never => {
    throw new Error(`${relative(out, file)} ${why}: its figures cannot be reported. Remove ${relative(out, folder)} to run it again, or give another --out.`);
  };
  let result: EvalRunResult;
  try {
    result = JSON.parse(text) as EvalRunResult;
  } catch (error) {
    return refuse(`is not JSON (${(error as Error).message})`);
  }
  if (typeof result !== 'object' || result === null || typeof result.ledger !== 'string') return refuse('names no ledger');
  if (result.folder !== relative(out, folder)) return refuse(`says it is the result of ${String(result.folder)}`);
  const ledgerRoot = join(out, result.ledger);
  const inside = relative(folder, ledgerRoot);
  if (inside.startsWith('..') || isAbsolute(inside)) return refuse(`names a ledger outside its run (${result.ledger})`);
  const chain = await verifyChain(join(ledgerRoot, 'ledger'));
  if (!chain.chain.ok) return refuse(`has a ledger whose chain does not verify (${chain.problems[0]?.message ?? 'broken'})`);
  const recorded = recordsOf((await Ledger.forArtifactRoot(ledgerRoot).read()).records, RECORD_TYPES.evalRun).at(-1);
  if (!recorded) return refuse('has no eval.run record in its ledger');
  const figures = fieldsOf(recordedFigures(result));
  const data = fieldsOf(recorded.data);
  if (!isDeepStrictEqual(figures, data)) {
    const differing = [...new Set([...Object.keys(figures), ...Object.keys(data)])].filter((k) => !isDeepStrictEqual(figures[k], data[k]));
    return refuse(`differs from its ledger's eval.run record (${differing.join(', ')})`);
  }
  return result;
}
